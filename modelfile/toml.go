package modelfile

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Error is a problem with a model file at a position: Line and Col are
// 1-based (Col counts bytes), Msg says what is wrong. Its text is
// "file:line:col: msg".
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// ErrModel is wrapped by every *Error (errors.Is(err, ErrModel)).
var ErrModel = errors.New("modelfile: invalid model file")

// Unwrap returns ErrModel.
func (e *Error) Unwrap() error { return ErrModel }

// where is a place in the file: the key and the value of an entry, and for
// a string value the offset of its first character (−1 when escapes make
// the offsets of the text differ from those of the file).
type where struct {
	key, val int // byte offsets
	text     int
}

// doc is a decoded TOML document with the position of every key and
// value, addressed by paths such as "state.0.x0.2".
type doc struct {
	file  string
	src   []byte
	root  map[string]any
	where map[string]where
}

// decode parses src with go-toml (the values) and its unstable parser (the
// positions of keys and values).
func decode(file string, src []byte) (*doc, error) {
	d := &doc{file: file, src: src, where: map[string]where{}}
	if err := toml.Unmarshal(src, &d.root); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			msg := strings.TrimPrefix(de.Error(), "toml: ")
			return nil, &Error{File: file, Line: line, Col: col, Msg: "TOML: " + msg}
		}
		return nil, &Error{File: file, Line: 1, Col: 1, Msg: "TOML: " + err.Error()}
	}
	if d.root == nil {
		d.root = map[string]any{}
	}
	var p unstable.Parser
	p.Reset(src)
	var table []string
	arrays := map[string]int{} // path of an array of tables → its last index
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			keys, first := keyParts(e.Key())
			table = resolve(arrays, keys, e.Kind == unstable.ArrayTable)
			off := int(first.Raw.Offset)
			d.where[strings.Join(table, ".")] = where{key: off, val: off, text: -1}
		case unstable.KeyValue:
			path, key := d.dotted(strings.Join(table, "."), e.Key())
			d.record(&p, path, key, e.Value())
		}
	}
	return d, nil
}

// dotted returns the path of a (dotted) key under prefix and the offset of
// its last part; the tables its earlier parts make get the offsets of
// theirs.
func (d *doc) dotted(prefix string, it unstable.Iterator) (string, int) {
	path, off := prefix, 0
	for it.Next() {
		n := it.Node()
		if path != "" {
			path += "."
		}
		path += string(n.Data)
		off = int(n.Raw.Offset)
		if _, ok := d.where[path]; !ok {
			d.where[path] = where{key: off, val: off, text: -1}
		}
	}
	return path, off
}

// keyParts returns the parts of a dotted key and its first key node.
func keyParts(it unstable.Iterator) ([]string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	for it.Next() {
		n := it.Node()
		if first == nil {
			first = n
		}
		parts = append(parts, string(n.Data))
	}
	return parts, first
}

// resolve returns the path of a table header: the parts, with the current
// index inserted after every array of tables (a new one for the last part
// of an [[array]] header).
func resolve(arrays map[string]int, keys []string, array bool) []string {
	var path []string
	for i, k := range keys {
		path = append(path, k)
		p := strings.Join(path, ".")
		if array && i == len(keys)-1 {
			n, ok := arrays[p]
			if !ok {
				n = -1
			}
			arrays[p] = n + 1
			path = append(path, strconv.Itoa(n+1))
		} else if n, ok := arrays[p]; ok {
			path = append(path, strconv.Itoa(n))
		}
	}
	return path
}

// record stores the position of the value n at path and of its elements.
func (d *doc) record(p *unstable.Parser, path string, key int, n *unstable.Node) {
	w := where{key: key, val: key, text: -1}
	switch n.Kind {
	case unstable.Array:
		it := n.Children()
		i := 0
		for it.Next() {
			c := it.Node()
			if c.Kind == unstable.Comment {
				continue
			}
			if i == 0 {
				w.val = d.firstOffset(c, key)
			}
			d.record(p, path+"."+strconv.Itoa(i), d.firstOffset(c, key), c)
			i++
		}
	case unstable.InlineTable:
		w.val = int(n.Raw.Offset)
		it := n.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			sub, key := d.dotted(path, c.Key())
			d.record(p, sub, key, c.Value())
		}
	default:
		w.val = int(n.Raw.Offset)
		if n.Kind == unstable.String {
			w.text = textOffset(string(p.Raw(n.Raw)), string(n.Data), w.val)
		}
	}
	d.where[path] = w
}

// textOffset returns the offset in the file of the first character of a
// string's text: after the opening quote(s) and the newline a multi-line
// string drops; −1 when escapes make the text differ from the file.
func textOffset(raw, data string, off int) int {
	prefix := 1
	if strings.HasPrefix(raw, `"""`) || strings.HasPrefix(raw, "'''") {
		prefix = 3
		switch {
		case strings.HasPrefix(raw[3:], "\n"):
			prefix++
		case strings.HasPrefix(raw[3:], "\r\n"):
			prefix += 2
		}
	}
	if prefix+len(data) <= len(raw) && raw[prefix:prefix+len(data)] == data {
		return off + prefix
	}
	return -1
}

// firstOffset is the offset of a value node (the first element for an
// array without position of its own).
func (d *doc) firstOffset(n *unstable.Node, fallback int) int {
	switch n.Kind {
	case unstable.Array:
		it := n.Children()
		for it.Next() {
			if c := it.Node(); c.Kind != unstable.Comment {
				return d.firstOffset(c, fallback)
			}
		}
		return fallback
	case unstable.KeyValue:
		return fallback
	}
	return int(n.Raw.Offset)
}

// errAt returns an *Error at the byte offset off.
func (d *doc) errAt(off int, format string, args ...any) *Error {
	line, col := 1, 1
	if off > len(d.src) {
		off = len(d.src)
	}
	for _, c := range d.src[:max(off, 0)] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &Error{File: d.file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// keyErr and valErr report at the key or the value of path (the start of
// the file when path has no position, e.g. a missing top-level table).
func (d *doc) keyErr(path string, format string, args ...any) *Error {
	return d.errAt(d.where[path].key, format, args...)
}

func (d *doc) valErr(path string, format string, args ...any) *Error {
	w, ok := d.where[path]
	if !ok {
		return d.errAt(0, format, args...)
	}
	return d.errAt(w.val, format, args...)
}

// table is a TOML table being read: every key must be read or is reported
// as unknown by done.
type table struct {
	d    *doc
	path string // "" for the root
	m    map[string]any
	name string // for messages: "[state]" …
}

func (t *table) sub(key string) string {
	if t.path == "" {
		return key
	}
	return t.path + "." + key
}

// check reports the first unknown key (in file order), listing the valid
// ones.
func (t *table) check(valid ...string) error {
	var bad []string
	for k := range t.m {
		if !contains(valid, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Slice(bad, func(i, j int) bool { return t.d.where[t.sub(bad[i])].key < t.d.where[t.sub(bad[j])].key })
	v := append([]string(nil), valid...)
	sort.Strings(v)
	return t.d.keyErr(t.sub(bad[0]), "unknown key %q in %s (valid keys: %s)", bad[0], t.name, strings.Join(v, ", "))
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

func (t *table) has(key string) bool {
	_, ok := t.m[key]
	return ok
}

// missing reports a required key that is not there, at the table.
func (t *table) missing(key string) error {
	if t.path == "" {
		return t.d.errAt(0, "missing key %q at the top level", key)
	}
	return t.d.keyErr(t.path, "missing key %q in %s", key, t.name)
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}

// number reads a finite number (integer or float) at path.
func (d *doc) number(path string, v any) (float64, error) {
	switch x := v.(type) {
	case int64:
		return float64(x), nil
	case float64:
		if math.IsNaN(x) {
			return 0, d.valErr(path, "NaN is not allowed here")
		}
		return x, nil
	}
	return 0, d.valErr(path, "want a number, found %s", typeName(v))
}

func (t *table) float(key string, required bool) (float64, bool, error) {
	v, ok := t.m[key]
	if !ok {
		if required {
			return 0, false, t.missing(key)
		}
		return 0, false, nil
	}
	f, err := t.d.number(t.sub(key), v)
	if err == nil && math.IsInf(f, 0) {
		err = t.d.valErr(t.sub(key), "%s must be finite", key)
	}
	return f, true, err
}

func (t *table) int(key string, required bool) (int, bool, error) {
	v, ok := t.m[key]
	if !ok {
		if required {
			return 0, false, t.missing(key)
		}
		return 0, false, nil
	}
	i, ok := v.(int64)
	if !ok || i > math.MaxInt32 || i < math.MinInt32 {
		return 0, true, t.d.valErr(t.sub(key), "%s: want an integer, found %s", key, typeName(v))
	}
	return int(i), true, nil
}

func (t *table) bool(key string) (bool, error) {
	v, ok := t.m[key]
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, t.d.valErr(t.sub(key), "%s: want true or false, found %s", key, typeName(v))
	}
	return b, nil
}

func (t *table) str(key string, required bool) (string, bool, error) {
	v, ok := t.m[key]
	if !ok {
		if required {
			return "", false, t.missing(key)
		}
		return "", false, nil
	}
	s, ok := v.(string)
	if !ok {
		return "", true, t.d.valErr(t.sub(key), "%s: want a string, found %s", key, typeName(v))
	}
	return s, true, nil
}

// floats reads a number or an array of numbers of length n (n < 0: any
// length; a single number with n > 1 is an error, so that sizes are never
// guessed).
func (t *table) floats(key string, n int, required bool) ([]float64, bool, error) {
	v, ok := t.m[key]
	if !ok {
		if required {
			return nil, false, t.missing(key)
		}
		return nil, false, nil
	}
	out, err := t.d.floatList(t.sub(key), v, n)
	return out, true, err
}

func (d *doc) floatList(path string, v any, n int) ([]float64, error) {
	var out []float64
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			f, err := d.number(path+"."+strconv.Itoa(i), e)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	default:
		f, err := d.number(path, v)
		if err != nil {
			return nil, err
		}
		out = []float64{f}
	}
	if n >= 0 && len(out) != n {
		return nil, d.valErr(path, "want %d values, found %d", n, len(out))
	}
	return out, nil
}

// subtable returns the table at key (nil if absent).
func (t *table) subtable(key, name string) (*table, error) {
	v, ok := t.m[key]
	if !ok {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, t.d.valErr(t.sub(key), "%s must be a table, found %s", key, typeName(v))
	}
	return &table{d: t.d, path: t.sub(key), m: m, name: name}, nil
}

// tables returns the array of tables at key ([[key]] or key = [{…}, …]).
func (t *table) tables(key, name string) ([]*table, error) {
	v, ok := t.m[key]
	if !ok {
		return nil, nil
	}
	if _, ok := v.(map[string]any); ok {
		return nil, t.d.keyErr(t.sub(key), "%s must be an array of tables: write [[%s]], not [%s]", key, key, key)
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, t.d.valErr(t.sub(key), "%s must be an array of tables ([[%s]]), found %s", key, key, typeName(v))
	}
	var out []*table
	for i, e := range arr {
		p := t.sub(key) + "." + strconv.Itoa(i)
		m, ok := e.(map[string]any)
		if !ok {
			return nil, t.d.valErr(p, "element %d of %s must be a table, found %s", i, key, typeName(e))
		}
		out = append(out, &table{d: t.d, path: p, m: m, name: fmt.Sprintf("%s %d", name, i)})
	}
	return out, nil
}
