package ad

import "fmt"

// Derivatives is a compiled function together with its sparse Jacobian and
// the lower triangle of its Lagrangian Hessian.
//
// With F's outputs concatenated into y(x, p) ∈ Rᵐ and the differentiation
// inputs concatenated into x ∈ Rⁿ:
//   - Jac has F's inputs and one output "jac" holding the nonzeros of
//     ∂y/∂x (m×n) in JacPattern order;
//   - Hess has F's inputs followed by "lambda" ∈ Rᵐ and one output "hess"
//     holding the nonzeros of the lower triangle of ∇²ₓ(λᵀy) (n×n) in
//     HessPattern order. For an objective f and constraints g, make f the
//     first output and set λ₀ = σ to get σ∇²f + Σ λᵢ∇²gᵢ.
type Derivatives struct {
	F           *Function
	Jac         *Function
	JacPattern  *Sparsity
	Hess        *Function
	HessPattern *Sparsity
}

// NewDerivatives compiles the function, its Jacobian and its Lagrangian
// Hessian with respect to the inputs named in wrt (all inputs if wrt is
// empty), in the order given. F is compiled from the caller's graph; the
// derivatives are built in a private copy of the cone of the inputs and
// outputs, so NewDerivatives adds no node to the caller's graph (package
// doc).
func NewDerivatives(name string, inputs, outputs []Arg, wrt ...string) (*Derivatives, error) {
	F, err := NewFunction(name, inputs, outputs)
	if err != nil {
		return nil, err
	}
	c, err := CopyArgs(inputs, outputs)
	if err != nil {
		return nil, err
	}
	inputs, outputs = c[0], c[1]
	var x Vec
	if len(wrt) == 0 {
		for _, a := range inputs {
			x = append(x, a.V...)
		}
	}
	for _, w := range wrt {
		found := false
		for _, a := range inputs {
			if a.Name == w {
				x = append(x, a.V...)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: %q is not an input of %q", ErrBadName, w, name)
		}
	}
	var y Vec
	for _, a := range outputs {
		y = append(y, a.V...)
	}
	if err := checkSymbols(x); err != nil {
		return nil, fmt.Errorf("ad: %q: %w", name, err)
	}
	J, err := JacobianSparse(y, x)
	if err != nil {
		return nil, err
	}
	Jf, err := NewFunction(name+"_jac", inputs, []Arg{{Name: "jac", V: J.Values}})
	if err != nil {
		return nil, err
	}
	d := &Derivatives{F: F, Jac: Jf, JacPattern: J.Pattern}
	var g *Graph
	for _, e := range append(append(Vec{}, x...), y...) {
		if e.g != nil {
			g = e.g
			break
		}
	}
	if g == nil {
		g = NewGraph()
	}
	lambda := g.SymVec("lambda", len(y))
	var H SparseMat
	if len(y) > 0 && len(x) > 0 {
		H, err = LagrangianHessian(x, Expr{}, Expr{}, lambda, y)
		if err != nil {
			return nil, err
		}
	} else {
		H = SparseMat{Pattern: newSparsityFromColumns(len(x), len(x), make([][]int, len(x))), Values: Vec{}}
	}
	hin := append(append([]Arg{}, inputs...), Arg{Name: "lambda", V: lambda})
	Hf, err := NewFunction(name+"_hess", hin, []Arg{{Name: "hess", V: H.Values}})
	if err != nil {
		return nil, err
	}
	d.Hess, d.HessPattern = Hf, H.Pattern
	return d, nil
}
