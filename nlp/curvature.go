package nlp

// curvatureOK is the curvature test of the inertia-free line search of
// Chiang and Zavala (Comput. Optim. Appl. 64, 2016), used here as a
// safeguard on top of the inertia check: the primal step of an accepted
// factorization must have dwᵀ(W + Σ + δ_w I)dw ≥ κ dwᵀdw (κ = 1e-8).
// A pivot-free LDLᵀ of a nearly singular KKT matrix can report the wanted
// inertia while the direction has negative or vanishing curvature; the
// line search then creeps with tiny steps.
func (ip *ipm) curvatureOK() bool {
	nk := ip.nw + ip.m
	if len(ip.curvX) != nk {
		ip.curvX, ip.curvY = make([]float64, nk), make([]float64, nk)
	}
	copy(ip.curvX, ip.dw)
	clear(ip.curvX[ip.nw:])
	ip.K.MulVecTo(ip.curvY, ip.curvX)
	curv, dd := 0.0, 0.0
	for j := range ip.nw {
		curv += ip.dw[j] * ip.curvY[j]
		dd += ip.dw[j] * ip.dw[j]
	}
	return curv >= curvKappa*dd
}

const curvKappa = 1e-8
