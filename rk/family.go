package rk

import "fmt"

// Family selects a family of Runge–Kutta methods. The zero value is FamilyRadauIIA,
// the default scheme of FESD.
type Family int

// The supported families.
const (
	// FamilyRadauIIA: collocation at the Radau right points (c_s = 1); order 2s−1,
	// stage order s, stiffly accurate, L-stable. s = 1 is implicit Euler.
	FamilyRadauIIA Family = iota
	// FamilyGaussLegendre: collocation at the Gauss points; order 2s, stage order s, A-stable.
	FamilyGaussLegendre
	// FamilyRadauIA: Radau left points (c_1 = 0), A defined by D(s); order 2s−1, stage order s−1.
	FamilyRadauIA
	// FamilyLobattoIIIA: collocation at the Lobatto points (c_1 = 0, c_s = 1); order 2s−2, stage order s.
	FamilyLobattoIIIA
	// FamilyLobattoIIIC: Lobatto points, a_i1 = b_1 and C(s−1); order 2s−2, stage order s−1.
	FamilyLobattoIIIC
	// FamilyExplicit: classical explicit methods, s = 1 (Euler), 2 (Heun), 4 (RK4).
	FamilyExplicit
)

// familyInfo is the single table that drives String, stage ranges, orders and
// the collocation property of each family.
type familyInfo struct {
	name        string
	minStages   int
	collocation bool
	order       func(s int) int
	stageOrder  func(s int) int
}

var families = [...]familyInfo{
	FamilyRadauIIA: {"RadauIIA", 1, true,
		func(s int) int { return 2*s - 1 }, func(s int) int { return s }},
	FamilyGaussLegendre: {"GaussLegendre", 1, true,
		func(s int) int { return 2 * s }, func(s int) int { return s }},
	FamilyRadauIA: {"RadauIA", 1, false,
		func(s int) int { return 2*s - 1 }, func(s int) int { return s - 1 }},
	FamilyLobattoIIIA: {"LobattoIIIA", 2, true,
		func(s int) int { return 2*s - 2 }, func(s int) int { return s }},
	FamilyLobattoIIIC: {"LobattoIIIC", 2, false,
		func(s int) int { return 2*s - 2 }, func(s int) int { return s - 1 }},
	FamilyExplicit: {"Explicit", 1, false, nil, nil},
}

// MaxStages is the largest number of stages the implicit families support.
// Up to this value the nodes agree with 256-bit references to 1e-15 and the
// simplifying assumptions hold to about 1e-12 (see the tests).
const MaxStages = 20

// String returns the family name, e.g. "RadauIIA".
func (f Family) String() string {
	if !f.valid() {
		return fmt.Sprintf("Family(%d)", int(f))
	}
	return families[f].name
}

func (f Family) valid() bool { return f >= 0 && int(f) < len(families) }

// MinStages returns the smallest supported number of stages of the family
// (2 for the Lobatto families, 1 otherwise), or 0 for an unknown family.
func (f Family) MinStages() int {
	if !f.valid() {
		return 0
	}
	return families[f].minStages
}

// Collocation reports whether the family's methods are collocation methods
// (Gauss, Radau IIA, Lobatto IIIA).
func (f Family) Collocation() bool { return f.valid() && families[f].collocation }

// ImplicitFamilies returns the implicit families computed from their nodes,
// in a fixed order. The slice is fresh on every call.
func ImplicitFamilies() []Family {
	return []Family{FamilyRadauIIA, FamilyGaussLegendre, FamilyRadauIA, FamilyLobattoIIIA, FamilyLobattoIIIC}
}
