package fesd

import (
	"fmt"
	"math"

	"github.com/fesd-go/fesd/ad"
)

// Sensitivities across a switch on a step boundary.
//
// Inside a step, FESD puts every switch on an element boundary and the
// branch NLP's linearization (sensitivity.go) contains the motion of that
// boundary with x₀, u and p: the step's sensitivity is that of the
// nonsmooth flow (004 Theorem 18). A switch exactly on the boundary
// between two simulation steps belongs to neither step's NLP: the step
// before ends on the surface in its old mode, and its sensitivity is the
// one-sided derivative of that mode continued past the surface
// (branchPartnersFixed); the step after starts in the new mode. The chain
// of the two misses the jump of the variational solution at the event,
// the saltation (Aizerman and Gantmacher, 1958; Filippov, Differential
// Equations with Discontinuous Righthand Sides, 1988, §2.11): with the
// switch defined by ψ(x(t_s), q) = 0 and the fields f⁻ before and f⁺
// after it,
//
//	dt_s/dq = −(∇ₓψ·D⁻ + ∂ψ/∂q) / (∇ₓψ·f⁻),
//	D⁺ = D⁻ − (f⁺ − f⁻)·dt_s/dq,
//
// for D = ∂x/∂q with q = x₀ (∂ψ/∂q = 0), the constant control u or the
// parameters p. It holds for a crossing (f⁺ the field of the region
// entered) and for an entry into sliding (f⁺ the sliding field). A
// departure from a surface is not corrected: leaving a sliding motion,
// f⁺ = f⁻ at the exit point, so the jump is zero; at a spontaneous switch
// the flow is not differentiable.
//
// f⁻ and f⁺ are the model's field at the boundary state with the algebraic
// values of the last stage point before it and the first stage point after
// it: exact for a crossing, whose θ or α are those of one mode, and for a
// sliding motion with a constant convex combination; otherwise the
// combination of the first stage point, c₁h away.

// psiJac returns ∂ψ/∂(x, u, p) at (x, u, p) for all switching functions in
// the order of dcs.Model.EvalPsi: row j has n_x + n_u + n_p entries.
func (si *switchInfo) psiJac(x, u, p []float64) ([][]float64, error) {
	m := si.m
	if si.psiJ == nil {
		var psi ad.Vec
		for _, s := range m.Subsystems {
			psi = append(psi, s.Psi...)
		}
		for _, st := range m.Steps {
			psi = append(psi, st.Psi...)
		}
		J, err := ad.Jacobian(psi, ad.Concat(m.X, m.U, m.P))
		if err != nil {
			return nil, fmt.Errorf("fesd: the switching functions' Jacobian: %w", err)
		}
		f, err := ad.NewFunction("fesd_psi_jac",
			[]ad.Arg{ad.A("x", m.X...), ad.A("u", m.U...), ad.A("p", m.P...)},
			[]ad.Arg{ad.A("J", J.E...)})
		if err != nil {
			return nil, fmt.Errorf("fesd: the switching functions' Jacobian: %w", err)
		}
		si.psiJ, si.psiJWS, si.psiJR, si.psiJC = f, f.NewWorkspace(), J.R, J.C
	}
	flat := make([]float64, si.psiJR*si.psiJC)
	if err := si.psiJ.Eval(si.psiJWS, [][]float64{x, u, p}, [][]float64{flat}); err != nil {
		return nil, err
	}
	out := make([][]float64, si.psiJR)
	for j := range out {
		out[j] = flat[j*si.psiJC : (j+1)*si.psiJC]
	}
	return out, nil
}

// saltation applies the jump of the switch sw (at a boundary between two
// simulation steps) to the total sensitivity tot of the state at that
// boundary: fm and fp are the fields before and after it, u and p the
// control and the parameters before it. A switch other than a crossing or
// an entry into sliding, or one whose field before it is tangent to the
// surface (|∇ψ·f⁻| below 1e-12 of |∇ψ|·|f⁻|), leaves tot unchanged.
func (si *switchInfo) saltation(tot *Sensitivity, sw Switch, fm, fp, u, p []float64) error {
	if sw.Kind != Crossing && sw.Kind != EnteringSliding {
		return nil
	}
	J, err := si.psiJac(sw.X, u, p)
	if err != nil {
		return err
	}
	row := -1
	for _, gr := range si.groups {
		if gr.sub == sw.Subsystem {
			row = gr.off + sw.Psi
		}
	}
	if row < 0 || row >= len(J) {
		return nil
	}
	nx, nu := len(si.m.X), len(si.m.U)
	gx := J[row][:nx]
	gu := J[row][nx : nx+nu]
	gp := J[row][nx+nu:]
	den, gn, fn := 0.0, 0.0, 0.0
	for i, g := range gx {
		den += g * fm[i]
		gn += g * g
		fn += fm[i] * fm[i]
	}
	if math.Abs(den) <= 1e-12*math.Sqrt(gn*fn) || den == 0 {
		return nil
	}
	jump := func(D [][]float64, gq []float64) {
		if len(D) == 0 {
			return
		}
		for j := range D[0] {
			v := 0.0
			for i := range gx {
				v += gx[i] * D[i][j]
			}
			if gq != nil {
				v += gq[j]
			}
			v /= den // −dt_s/dq_j
			for i := range D {
				D[i][j] += (fp[i] - fm[i]) * v
			}
		}
	}
	jump(tot.DX0, nil)
	if len(tot.DU) > 0 && len(tot.DU[0]) == nu {
		jump(tot.DU, gu)
	}
	if len(tot.DP) > 0 && len(tot.DP[0]) == len(gp) {
		jump(tot.DP, gp)
	}
	return nil
}

// chainSimulation multiplies the step sensitivities sens (one per step,
// or piece of a split step, of the simulation result r, in order; first[k]
// is the first element of step k) with the saltation of every switch on a
// boundary between two steps. uOf and pOf give the control and the
// parameters of a step.
func (si *switchInfo) chainSimulation(r *Trajectory, sens []*Sensitivity, first []int, uOf, pOf func(k int) []float64) (*Sensitivity, error) {
	if len(sens) == 0 {
		return nil, nil
	}
	ns := si.o.Stages
	tot := sens[0].clone()
	for k := 1; k < len(sens); k++ {
		b := first[k]
		for _, sw := range r.Switches {
			if b <= 0 || sw.Boundary != b {
				continue
			}
			xb := r.X[b]
			um, pm := uOf(k-1), pOf(k-1)
			fm, err := si.d.EvalF(xb, um, pm, r.PointZ[b*ns-1], r.T[b])
			if err != nil {
				return nil, err
			}
			fp, err := si.d.EvalF(xb, uOf(k), pOf(k), r.PointZ[b*ns], r.T[b])
			if err != nil {
				return nil, err
			}
			if err := si.saltation(tot, sw, fm, fp, um, pm); err != nil {
				return nil, err
			}
		}
		tot = tot.chain(sens[k])
	}
	return tot, nil
}

func (s *Sensitivity) clone() *Sensitivity {
	cp := func(a [][]float64) [][]float64 {
		out := make([][]float64, len(a))
		for i := range a {
			out[i] = clone(a[i])
		}
		return out
	}
	return &Sensitivity{DX0: cp(s.DX0), DU: cp(s.DU), DP: cp(s.DP)}
}
