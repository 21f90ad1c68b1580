package modelfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fesd-go/fesd/ad"
)

// FuzzParse runs the TOML decoder, the expression parser and the model
// builder on arbitrary files: Parse must return a model or an *Error,
// never panic, and a model it returns must reformulate (or fail with an
// error) and evaluate its switching functions at x₀ without panicking.
// Seeds: the files of examples/models, the bad files of TestBadFiles, the
// regions file and a file with [let], StageEnd and PathComps.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../examples/models/*.toml")
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	for _, c := range badFiles {
		f.Add([]byte(c.src))
	}
	f.Add([]byte(regionsFile))
	f.Add([]byte("[[state]]\nname = \"t\"\nx0 = 0\n[let]\nw = \"2*t\"\n[dynamics]\nf = \"w\"\n[ocp]\nN = 3\nT = 1.5\nStageEnd = [{ G = \"t - (stage + 1)*0.5\" }]\nPathComps = [{ G = \"t\", H = \"w\" }]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("fuzz.toml", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v is not an *Error", err, err)
			}
			return
		}
		if _, err := m.Model.Reformulate(m.Options.DCS); err != nil {
			return
		}
		u := make([]float64, len(m.Model.U))
		_, _ = m.Model.EvalPsi(m.X0, u, m.P)
	})
}

// FuzzExpr runs the expression parser and builder on arbitrary strings in
// a scope with a scalar, a vector and a constant vector.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"-gamma*x + k1*[1, 1, 1, a[1], 1]", "x[0]^-2 + sin(q)/q", "max(x, 2)*sum(c)", "((q))", "2^3^2", "-q^2", "[x, q][5]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, perr := parseExpr(s)
		if perr != nil {
			if perr.Off < 0 || perr.Off > len(s) {
				t.Fatalf("error offset %d outside [0, %d]", perr.Off, len(s))
			}
			return
		}
		sc := testScope()
		if _, perr := sc.build(n); perr != nil && (perr.Off < 0 || perr.Off > len(s)) {
			t.Fatalf("error offset %d outside [0, %d]", perr.Off, len(s))
		}
	})
}

// testScope has a scalar q, a vector x of 3 and a constant vector c of 3.
func testScope() *scope {
	g := ad.NewGraph()
	return &scope{g: g, names: map[string]binding{
		"q": {v: ad.Vec{g.Sym("q")}, what: "state"},
		"x": {v: g.SymVec("x", 3), what: "state"},
		"c": {v: g.ConstVec(1, 2, 3), what: "constant"},
	}}
}
