package mpcc

import (
	"fmt"
	"math"
	"time"

	"github.com/fesd-go/fesd/nlp"
)

// Stationarity is the class of an MPCC point certified from the multipliers
// of its tightened NLP (see the package documentation, "Certificate"). The
// classes are ordered: a larger value is a stronger statement, and every
// class implies the ones below it (B implies M under no further assumption
// because the LPEC's constraints are linear).
type Stationarity int

const (
	// NotCertified: no class could be established (the tightened NLP
	// failed, its point is not stationary, the homotopy was cancelled, or
	// the certificate was switched off); Certificate.Reason says why.
	NotCertified Stationarity = iota
	// WStationary: weakly stationary, the KKT conditions of the tightened
	// NLP hold with no sign condition on the biactive multipliers.
	WStationary
	// CStationary: Clarke, ν_G·ν_H ≥ 0 on every biactive pair.
	CStationary
	// MStationary: Mordukhovich, ν_G > 0 and ν_H > 0, or ν_G·ν_H = 0, on
	// every biactive pair.
	MStationary
	// BStationary: Bouligand, no feasible first-order descent direction; the
	// LPEC over the biactive pairs proved it although the multipliers of the
	// tightened NLP are not all nonnegative.
	BStationary
	// SStationary: strongly stationary, ν_G ≥ 0 and ν_H ≥ 0 on every
	// biactive pair; implies B-stationarity (and without biactive pairs every
	// class coincides with it).
	SStationary
	numStationarities
)

var stationarityNames = [...]string{
	NotCertified: "NotCertified",
	WStationary:  "W",
	CStationary:  "C",
	MStationary:  "M",
	BStationary:  "B",
	SStationary:  "S",
}

func (s Stationarity) String() string {
	if s < 0 || s >= numStationarities {
		return fmt.Sprintf("Stationarity(%d)", int(s))
	}
	return stationarityNames[s]
}

// B reports whether the class certifies B-stationarity (BStationary or
// SStationary).
func (s Stationarity) B() bool { return s == BStationary || s == SStationary }

// PairRef names one pair: Problem.Comp[Term].Pairs[Pair].
type PairRef struct{ Term, Pair int }

// LPECOutcome is the verdict of the LPEC over the biactive pairs.
type LPECOutcome int

const (
	// LPECNotRun: the multiplier signs decided (S-stationary), or the
	// point was not certified at all.
	LPECNotRun LPECOutcome = iota
	// LPECStationary: no branch has a descent direction (B-stationary).
	LPECStationary
	// LPECDescent: some branch has a descent direction (not B-stationary);
	// LPEC.Freed names the variables it moves off zero.
	LPECDescent
	// LPECUndetermined: too many biactive pairs, the LP budget ran out, or
	// an LP failed; LPEC.Reason says which.
	LPECUndetermined
	numLPECOutcomes
)

func (o LPECOutcome) String() string {
	switch o {
	case LPECNotRun:
		return "NotRun"
	case LPECStationary:
		return "Stationary"
	case LPECDescent:
		return "Descent"
	case LPECUndetermined:
		return "Undetermined"
	}
	return fmt.Sprintf("LPECOutcome(%d)", int(o))
}

// LPECRecord describes the LPEC solved at a certified point.
type LPECRecord struct {
	Outcome LPECOutcome
	// Pairs is the number k of biactive pairs (2^k branches).
	Pairs int
	// Blocks is the number of independent blocks the LPEC separates into
	// (the components of its free variables linked by active rows), each
	// solved on its own: one per block with a biactive pair, and one LP
	// for all the others.
	Blocks int
	// LPs is the number of linear programs solved by the branch and bound,
	// Iterations their interior-point iterations in total.
	LPs, Iterations int
	// Value is the sum over the explored blocks of the smallest LP value
	// found, min ∇fᵀd over the explored cones with ‖d‖∞ ≤ 1 (0 when none
	// was negative); with LPECDescent, that of the descending block.
	Value float64
	// Tol is the threshold below which a value counts as descent.
	Tol float64
	// Freed lists the variables that the descent direction moves off zero
	// (LPECDescent only): the branch to try next.
	Freed []int
	// Reason explains LPECUndetermined.
	Reason  string
	Elapsed time.Duration
}

// Certificate is the stationarity certificate of a point: the solution X of
// the tightened NLP started at a homotopy (or branch) point, its index sets
// and multipliers, and the class derived from them.
type Certificate struct {
	Class Stationarity
	// Reason says why the class is not stronger (empty for SStationary).
	Reason string
	// X is the classified point (length n of Problem.NLP); it satisfies the
	// complementarity exactly (every pair has a variable at its lower
	// bound). Y are its constraint multipliers.
	X, Y []float64
	// Objective is f(X), Violation the max-norm violation of the bounds and
	// constraints of the MPCC's NLP at X.
	Objective, Violation float64
	// Distance is ‖X − x₀‖∞ to the point x₀ the tightened NLP started from.
	Distance float64
	// NLPStatus and Iterations are those of the tightened solve.
	NLPStatus  nlp.Status
	Iterations int
	// Fixed lists the variables fixed at their lower bound in the tightened
	// NLP.
	Fixed []int
	// GActive (x_a ≈ 0 < x_b), HActive (x_a > 0 ≈ x_b) and Biactive (both ≈
	// 0) partition the pairs at X, with "≈ 0" meaning x_i − x_L,i ≤
	// ActiveTol.
	GActive, HActive, Biactive []PairRef
	// Nu are the bound multipliers ν = ∇f(X) + J(X)ᵀY (length n; for a
	// variable at its lower bound ν_i ≥ 0 means it wants to stay there).
	Nu []float64
	// MinBiactiveNu is the smallest ν over the variables of biactive pairs
	// (+Inf without biactive pairs).
	MinBiactiveNu float64
	// DualResidual is the largest violation of the KKT conditions of the
	// tightened NLP that do not involve the biactive signs: |ν_i| of free
	// variables, wrong signs of active bounds and inequality constraints.
	DualResidual float64
	// ActiveTol and MultTol are the tolerances used (MultTol already scaled
	// by max(1, ‖∇f(X)‖∞)).
	ActiveTol, MultTol float64
	// LPEC is the LPEC over the biactive pairs (nil when not run).
	LPEC    *LPECRecord
	Elapsed time.Duration
}

// BranchSolve records one tightened or branch NLP solve of the finish.
type BranchSolve struct {
	// Fixed is the number of variables fixed at their lower bound, Freed
	// the number of previously fixed variables released by the branch
	// change that led to this solve (0 for the first).
	Fixed, Freed int
	Status       nlp.Status
	Iterations   int
	Objective    float64
	Violation    float64
	Class        Stationarity
	Elapsed      time.Duration
}

// FinishRecord describes the active-set finish (Settings.Finish).
type FinishRecord struct {
	// Sigma is σ of the homotopy step the finish started from.
	Sigma float64
	// Solves has one record per tightened/branch NLP.
	Solves []BranchSolve
	// BranchChanges counts moves to another branch.
	BranchChanges int
	// Explored counts the neighbouring branches solved by
	// Settings.Explore, Improvements the moves to a better one (their
	// solves are in Solves too, after the finish's own).
	Explored, Improvements int
	// Accepted reports whether the finish's point replaced the homotopy
	// point; otherwise Reason says why it fell back.
	Accepted bool
	Reason   string
	Elapsed  time.Duration
}

// Iterations returns the inner iterations of all solves of the finish.
func (f *FinishRecord) Iterations() int {
	if f == nil {
		return 0
	}
	var it int
	for _, s := range f.Solves {
		it += s.Iterations
	}
	return it
}

// pairInfo is the pair structure of a Problem: for every variable the
// pairs it belongs to and its partners.
type pairInfo struct {
	refs     []PairRef
	pairs    [][2]int
	inPair   []bool
	partners [][]int
	vars     []int // variables in some pair, ascending
}

func newPairInfo(p *Problem, n int) *pairInfo {
	pi := &pairInfo{inPair: make([]bool, n), partners: make([][]int, n)}
	for k, c := range p.Comp {
		for j, pr := range c.Pairs {
			pi.refs = append(pi.refs, PairRef{k, j})
			pi.pairs = append(pi.pairs, pr)
			a, b := pr[0], pr[1]
			pi.inPair[a], pi.inPair[b] = true, true
			pi.partners[a] = append(pi.partners[a], b)
			pi.partners[b] = append(pi.partners[b], a)
		}
	}
	for i, in := range pi.inPair {
		if in {
			pi.vars = append(pi.vars, i)
		}
	}
	return pi
}

// identify returns the variables to fix for the tightened NLP at x: every
// pair variable with gap x_i − x_L,i ≤ tol, and for every pair with neither
// side that close, the side with the smaller gap (the first on ties). The
// result is sorted and covers every pair.
func (pi *pairInfo) identify(x, xL []float64, tol float64) []int {
	fix := make([]bool, len(x))
	for _, i := range pi.vars {
		if x[i]-xL[i] <= tol {
			fix[i] = true
		}
	}
	for _, pr := range pi.pairs {
		a, b := pr[0], pr[1]
		if fix[a] || fix[b] {
			continue
		}
		if x[b]-xL[b] < x[a]-xL[a] {
			fix[b] = true
		} else {
			fix[a] = true
		}
	}
	var out []int
	for i, f := range fix {
		if f {
			out = append(out, i)
		}
	}
	return out
}

// zeroSets returns the pair variables with gap x_i − x_L,i ≤ tol (zero)
// and, among them, those with a partner above tol in some pair (locked:
// every feasible point nearby keeps them at their bound, so their
// multiplier has no sign condition). The zero variables that are not
// locked are the movable ones, which the biactive analysis and the LPEC
// branch on.
func (pi *pairInfo) zeroSets(x, xL []float64, tol float64) (zero, locked []bool) {
	zero, locked = make([]bool, len(x)), make([]bool, len(x))
	for _, i := range pi.vars {
		zero[i] = x[i]-xL[i] <= tol
	}
	for _, i := range pi.vars {
		if !zero[i] {
			continue
		}
		for _, j := range pi.partners[i] {
			if !zero[j] {
				locked[i] = true
				break
			}
		}
	}
	return zero, locked
}

// setKey is a map key of a sorted index set.
func setKey(s []int) string { return fmt.Sprint(s) }

// tightNLP is the MPCC's NLP without complementarity constraints, with the
// variables in fix held at their lower bound (x_U,i = x_L,i) and every
// other finite variable bound loosened by tightRelax·max(1, |b|), so that
// the tightened NLP keeps an interior when the fixed variables and the
// equality constraints pin a bounded variable to its bound (certify
// projects the returned point back onto the variable bounds unless that
// violates the rows more, see unprojected).
type tightNLP struct {
	nlp.Problem
	fix   []bool
	start []float64
}

// tightRelax is the relative loosening of the free bounds of the tightened
// NLP (IPOPT's bound_relax_factor is 1e-8).
const tightRelax = 1e-9

func (t *tightNLP) Bounds(xL, xU, gL, gU []float64) {
	t.Problem.Bounds(xL, xU, gL, gU)
	for i := range xL {
		if t.fix[i] {
			xU[i] = xL[i]
			continue
		}
		if xL[i] < xU[i] {
			xL[i] -= tightRelax * math.Max(1, math.Abs(xL[i]))
			xU[i] += tightRelax * math.Max(1, math.Abs(xU[i]))
		}
	}
}

func (t *tightNLP) Start(x0 []float64) { copy(x0, t.start) }

func (t *tightNLP) tightened() {}

// stagedTight is the view of a tightNLP whose MPCC NLP implements
// nlp.StageHinter: the tightened NLP has the same variables and
// constraints, so it passes the stage numbers on unchanged.
type stagedTight struct{ *tightNLP }

var _ nlp.StageHinter = stagedTight{}

// Stages implements nlp.StageHinter.
func (s stagedTight) Stages(xStage, gStage []int) {
	s.Problem.(nlp.StageHinter).Stages(xStage, gStage)
}

// problem returns t as the nlp.Problem to solve, with the stage numbers of
// the MPCC's NLP if it has them (as Relaxed.Problem).
func (t *tightNLP) problem() nlp.Problem {
	if _, ok := t.Problem.(nlp.StageHinter); ok {
		return stagedTight{t}
	}
	return t
}

// boundTol is the relative distance within which a bound or an inequality
// constraint counts as active at a solution of the tightened NLP (whose
// active bounds are met to the inner solver's tolerance).
const boundTol = 1e-7

func nearBound(v, b float64) bool {
	return !math.IsInf(b, 0) && math.Abs(v-b) <= boundTol*math.Max(1, math.Abs(b))
}

// pointData is the first-order information of the NLP at a point.
type pointData struct {
	x, g, grad []float64
	jr, jc     []int
	jv         []float64
	xL, xU     []float64
	gL, gU     []float64
	nu         []float64
}

func evalPoint(q nlp.Problem, x, y []float64) (*pointData, error) {
	n, m := q.Dims()
	d := &pointData{x: x, g: make([]float64, m), grad: make([]float64, n),
		xL: make([]float64, n), xU: make([]float64, n), gL: make([]float64, m), gU: make([]float64, m)}
	q.Bounds(d.xL, d.xU, d.gL, d.gU)
	if err := q.Constraints(x, d.g); err != nil {
		return nil, err
	}
	if err := q.Gradient(x, d.grad); err != nil {
		return nil, err
	}
	d.jr, d.jc = q.JacobianStructure()
	d.jv = make([]float64, len(d.jr))
	if err := q.JacobianValues(x, d.jv); err != nil {
		return nil, err
	}
	d.nu = append([]float64(nil), d.grad...)
	if len(y) == m {
		for k, i := range d.jr {
			d.nu[d.jc[k]] += d.jv[k] * y[i]
		}
	}
	return d, nil
}

// classify computes the certificate of the solution x (with constraint
// multipliers y) of the tightened NLP. zero marks the pair variables with
// gap ≤ actTol. It does not run the LPEC.
func classify(p *Problem, pi *pairInfo, d *pointData, y []float64, actTol, multTol float64, c *Certificate) {
	n := len(d.x)
	gmax := 0.0
	for _, v := range d.grad {
		gmax = math.Max(gmax, math.Abs(v))
	}
	c.ActiveTol = actTol
	c.MultTol = multTol * math.Max(1, gmax)
	c.Nu = d.nu
	c.MinBiactiveNu = math.Inf(1)
	if !finiteVec(d.nu) {
		c.Class, c.Reason = NotCertified, "non-finite multipliers"
		return
	}
	zero, locked := pi.zeroSets(d.x, d.xL, actTol)
	// KKT conditions other than the biactive signs.
	var res float64
	for i := 0; i < n; i++ {
		nu := d.nu[i]
		switch {
		case zero[i] || d.xL[i] == d.xU[i]:
			// sign-free here: fixed, or decided by the pair analysis
			// below (a zero variable with a positive partner is fixed).
		case nearBound(d.x[i], d.xL[i]):
			res = math.Max(res, -nu)
		case nearBound(d.x[i], d.xU[i]):
			res = math.Max(res, nu)
		default:
			res = math.Max(res, math.Abs(nu))
		}
	}
	if len(y) == len(d.g) {
		for i, yi := range y {
			lo, hi := nearBound(d.g[i], d.gL[i]), nearBound(d.g[i], d.gU[i])
			switch {
			case d.gL[i] == d.gU[i] || (lo && hi):
			case hi:
				res = math.Max(res, -yi)
			case lo:
				res = math.Max(res, yi)
			}
		}
	}
	c.DualResidual = res
	c.GActive, c.HActive, c.Biactive = c.GActive[:0], c.HActive[:0], c.Biactive[:0]
	class := SStationary
	for k, pr := range pi.pairs {
		a, b := pr[0], pr[1]
		switch {
		case zero[a] && zero[b]:
			c.Biactive = append(c.Biactive, pi.refs[k])
		case zero[a]:
			c.GActive = append(c.GActive, pi.refs[k])
			continue
		case zero[b]:
			c.HActive = append(c.HActive, pi.refs[k])
			continue
		default:
			c.Class = NotCertified
			c.Reason = fmt.Sprintf("pair %v (%d, %d) is not complementary: %.3g·%.3g", pi.refs[k], a, b, d.x[a], d.x[b])
			return
		}
		// A locked side has no sign condition (it counts as zero).
		var na, nb float64
		if !locked[a] {
			na = d.nu[a]
			c.MinBiactiveNu = math.Min(c.MinBiactiveNu, na)
		}
		if !locked[b] {
			nb = d.nu[b]
			c.MinBiactiveNu = math.Min(c.MinBiactiveNu, nb)
		}
		class = min(class, pairClass(na, nb, c.MultTol))
	}
	if res > c.MultTol {
		c.Class = NotCertified
		c.Reason = fmt.Sprintf("not a KKT point of the tightened NLP: dual residual %.3g > %.3g", res, c.MultTol)
		return
	}
	c.Class = class
	if class != SStationary {
		c.Reason = fmt.Sprintf("biactive multiplier %.3g < −%.3g", c.MinBiactiveNu, c.MultTol)
	}
}

// pairClass is the strongest class of one biactive pair with multipliers
// (ν_G, ν_H), with |ν| ≤ tol counting as zero.
func pairClass(na, nb, tol float64) Stationarity {
	neg := func(v float64) bool { return v < -tol }
	pos := func(v float64) bool { return v > tol }
	zero := func(v float64) bool { return !neg(v) && !pos(v) }
	switch {
	case !neg(na) && !neg(nb):
		return SStationary
	case zero(na) || zero(nb):
		return MStationary
	case neg(na) && neg(nb):
		return CStationary
	}
	return WStationary
}
