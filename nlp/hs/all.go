package hs

import (
	"fmt"
	"sync"
)

// entry is one problem of the collection: its name, which is the Name of
// the problem that new builds, and its constructor. The name is written out
// so that ByName finds a problem without building the others (building one
// compiles its derivative tapes).
type entry struct {
	name string
	new  func() *Problem
}

// constructors lists the problems of the collection in order.
var constructors = []entry{
	{"hs001", hs001}, {"hs002", hs002}, {"hs003", hs003}, {"hs004", hs004}, {"hs005", hs005},
	{"hs006", hs006}, {"hs007", hs007}, {"hs008", hs008}, {"hs009", hs009}, {"hs010", hs010},
	{"hs011", hs011}, {"hs012", hs012}, {"hs013", hs013}, {"hs014", hs014}, {"hs015", hs015},
	{"hs016", hs016}, {"hs017", hs017}, {"hs018", hs018}, {"hs019", hs019}, {"hs020", hs020},
	{"hs021", hs021}, {"hs022", hs022}, {"hs023", hs023}, {"hs024", hs024}, {"hs025", hs025},
	{"hs026", hs026}, {"hs027", hs027}, {"hs028", hs028}, {"hs029", hs029}, {"hs030", hs030},
	{"hs031", hs031}, {"hs032", hs032}, {"hs033", hs033}, {"hs034", hs034}, {"hs035", hs035},
	{"hs036", hs036}, {"hs037", hs037}, {"hs038", hs038}, {"hs039", hs039}, {"hs040", hs040},
	{"hs041", hs041}, {"hs042", hs042}, {"hs043", hs043}, {"hs044", hs044}, {"hs045", hs045},
	{"hs046", hs046}, {"hs047", hs047}, {"hs048", hs048}, {"hs049", hs049}, {"hs050", hs050},
	{"hs051", hs051}, {"hs052", hs052}, {"hs053", hs053}, {"hs054", hs054}, {"hs055", hs055},
	{"hs056", hs056}, {"hs057", hs057}, {"hs058", hs058}, {"hs059", hs059}, {"hs060", hs060},
	{"hs061", hs061}, {"hs062", hs062}, {"hs063", hs063}, {"hs064", hs064}, {"hs065", hs065},
	{"hs066", hs066}, {"hs068", hs068}, {"hs069", hs069}, {"hs070", hs070}, {"hs071", hs071},
	{"hs072", hs072}, {"hs073", hs073}, {"hs074", hs074}, {"hs075", hs075}, {"hs076", hs076},
	{"hs077", hs077}, {"hs078", hs078}, {"hs079", hs079}, {"hs080", hs080}, {"hs081", hs081},
	{"hs083", hs083}, {"hs084", hs084}, {"hs085", hs085}, {"hs086", hs086}, {"hs088", hs088p},
	{"hs089", hs089}, {"hs090", hs090}, {"hs091", hs091}, {"hs092", hs092}, {"hs093", hs093},
	{"hs095", hs095p}, {"hs096", hs096}, {"hs097", hs097}, {"hs098", hs098}, {"hs099", hs099},
	{"hs100", hs100}, {"hs101", hs101p}, {"hs102", hs102}, {"hs103", hs103}, {"hs104", hs104},
	{"hs105", hs105}, {"hs106", hs106}, {"hs107", hs107}, {"hs108", hs108}, {"hs109", hs109},
	{"hs110", hs110}, {"hs111", hs111}, {"hs112", hs112}, {"hs113", hs113}, {"hs114", hs114},
	{"hs116", hs116}, {"hs117", hs117}, {"hs118", hs118}, {"hs119", hs119},
}

func init() {
	// Problems 201–395 of Schittkowski's second collection (tp2a.go,
	// tp2b.go, tp2c.go), after those of the book.
	constructors = append(constructors, tpA...)
	constructors = append(constructors, tpB...)
	constructors = append(constructors, tpC...)
}

// byName maps each name of constructors to its index, built on the first
// ByName (after init has appended the second collection).
var (
	byNameOnce sync.Once
	byName     map[string]int
)

// All returns fresh instances of every problem in the collection, ordered by
// problem number.
func All() []*Problem {
	ps := make([]*Problem, len(constructors))
	for i, c := range constructors {
		ps[i] = c.new()
	}
	return ps
}

// ByName returns a fresh instance of the problem with the given name (for
// example "hs071"). An unknown name gives an error wrapping ErrUnknown.
func ByName(name string) (*Problem, error) {
	byNameOnce.Do(func() {
		byName = make(map[string]int, len(constructors))
		for i, c := range constructors {
			byName[c.name] = i
		}
	})
	if i, ok := byName[name]; ok {
		return constructors[i].new(), nil
	}
	return nil, fmt.Errorf("%w %q", ErrUnknown, name)
}
