package nlp

import (
	"fmt"
	"math"
	"time"
)

const logHeader = "iter    objective    inf_pr   inf_du lg(mu)  ||d||  lg(rg) alpha_du alpha_pr  ls\n"

// record appends the current iterate to the history and writes a log line.
// It uses the errors of the last computeErrors (infPr: unscaled constraint
// violation).
func (ip *ipm) record(infPr float64) {
	root := ip
	resto := ip.parent != nil
	if resto {
		root = ip.parent
	}
	infDu := ip.errDual
	obj := ip.f / ip.df
	rec := IterRecord{
		Iter:        root.iter,
		Mu:          ip.mu,
		Objective:   obj,
		InfPr:       infPr,
		InfDu:       infDu,
		StepNorm:    ip.stepNorm,
		DeltaW:      ip.lastDeltaW,
		DeltaC:      ip.lastDeltaC,
		AlphaPr:     ip.alphaPr,
		AlphaDu:     ip.alphaDu,
		LSTrials:    ip.lsTrials,
		Restoration: resto,
	}
	if len(root.history) < cap(root.history) {
		root.history = append(root.history, rec)
	}
	if root.set.Log != nil && root.prm.printLevel > 0 {
		root.writeLog(&rec)
	}
	ip.stepNorm, ip.lastDeltaW, ip.lastDeltaC, ip.lsTrials = 0, 0, 0, 0
}

func (ip *ipm) writeLog(r *IterRecord) {
	w := ip.set.Log
	if ip.logRows%10 == 0 {
		fmt.Fprint(w, logHeader)
	}
	ip.logRows++
	mark := ' '
	if r.Restoration {
		mark = 'r'
	}
	rg := "   - "
	if r.DeltaW > 0 {
		rg = fmt.Sprintf("%5.1f", math.Log10(r.DeltaW))
	}
	lgmu := math.Log10(r.Mu)
	fmt.Fprintf(w, "%4d%c %13.7e %8.2e %8.2e %5.1f %8.2e %s %8.2e %8.2e %3d\n",
		r.Iter, mark, r.Objective, r.InfPr, r.InfDu, lgmu, r.StepNorm, rg, r.AlphaDu, r.AlphaPr, r.LSTrials)
}

// result builds the Result (unscaled quantities).
func (ip *ipm) result(st Status) *Result {
	n, m := ip.n, ip.m
	res := &Result{Status: st, Iterations: ip.iter, Mu: ip.mu}
	res.X = make([]float64, n)
	copy(res.X, ip.w[:n])
	res.G = make([]float64, m)
	res.Y = make([]float64, m)
	res.ZL = make([]float64, n)
	res.ZU = make([]float64, n)
	df := ip.df
	if df == 0 {
		df = 1
	}
	res.Objective = ip.f / df
	for i := range m {
		res.G[i] = ip.g[i] / ip.dc[i]
		res.Y[i] = ip.y[i] * ip.dc[i] / df
	}
	for j := range n {
		res.ZL[j] = ip.zL[j] / df
		res.ZU[j] = ip.zU[j] / df
	}
	ip.dualResidual(ip.rd)
	if ip.nFixed > 0 {
		// Multipliers of fixed variables from the Lagrangian gradient
		// ∇f + Jᵀy (IPOPT's make_parameter treatment).
		v := ip.aux.w // scratch
		copy(v, ip.grad)
		for k, i := range ip.jRow {
			v[ip.jCol[k]] += ip.jVal[k] * ip.y[i]
		}
		for j := range n {
			if ip.fixed[j] {
				res.ZL[j] = max(v[j], 0) / df
				res.ZU[j] = max(-v[j], 0) / df
			}
		}
	}
	res.DualInfeasibility, _, res.Complementarity = ip.unscaledErrors()
	pinf := 0.0
	for i := range m {
		gi := res.G[i]
		pinf = math.Max(pinf, math.Max(ip.gLo[i]-gi, gi-ip.gUp[i]))
	}
	for j := range n {
		x := res.X[j]
		pinf = math.Max(pinf, math.Max(ip.xLo[j]-x, x-ip.xUp[j]))
	}
	res.PrimalInfeasibility = math.Max(0, pinf)
	res.History = ip.history
	res.Counts = ip.counts
	if ip.parent == nil && res.Iterations > 0 {
		res.Degeneracy = Degeneracy{
			Jacobian: ip.ic.jacDegenerate || 2*ip.counts.DeltaC >= res.Iterations,
			Hessian:  ip.ic.hessDegenerate || 2*ip.counts.SingularHessian >= res.Iterations,
		}
	}
	res.Time = ip.timing
	res.Time.Total = time.Since(ip.t0)
	if ip.set.Log != nil && ip.prm.printLevel > 0 {
		fmt.Fprintf(ip.set.Log, "\nStatus: %v after %d iterations, objective %.10e\n", st, ip.iter, res.Objective)
		if ip.prm.printLevel >= 2 {
			fmt.Fprintf(ip.set.Log, "primal inf %.3e, dual inf %.3e, compl %.3e\n", res.PrimalInfeasibility, res.DualInfeasibility, res.Complementarity)
			fmt.Fprintf(ip.set.Log, "evaluations f %d, ∇f %d, g %d, J %d, H %d; factorizations %d\n",
				res.Counts.Objective, res.Counts.Gradient, res.Counts.Constraints, res.Counts.Jacobian, res.Counts.Hessian, res.Counts.Factorizations)
			fmt.Fprintf(ip.set.Log, "time: total %v, evaluation %v, factorization %v, solve %v\n",
				res.Time.Total, res.Time.Evaluation, res.Time.Factorization, res.Time.Solve)
		}
	}
	return res
}
