package nlp

// curvatureOK is the curvature test of the inertia-free line search of
// Chiang and Zavala (Comput. Optim. Appl. 64, 2016), used here as a
// safeguard on top of the inertia check: the primal step of an accepted
// factorization must have dwᵀ(W + Σ + δ_w I)dw ≥ κ dwᵀdw (κ = 1e-8).
// A pivot-free LDLᵀ of a nearly singular KKT matrix can report the wanted
// inertia while the direction has negative or vanishing curvature; the
// line search then creeps with tiny steps.
func (ip *ipm) curvatureOK() bool {
	curv := ip.kkt.curvature(ip.dw)
	dd := 0.0
	for _, v := range ip.dw[:ip.nw] {
		dd += v * v
	}
	return curv >= curvKappa*dd
}

const curvKappa = 1e-8
