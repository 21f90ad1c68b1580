package modelfile

import (
	"errors"
	"strings"
	"testing"
)

// head is a valid start of a file: a scalar state q, a state vector v of
// size 2 with bounds, a control u.
const head = `[[state]]
name = "q"
x0 = 0

[[state]]
name = "v"
size = 2
x0 = [0, 1]

[[control]]
name = "u"
`

// tf is a valid start of a time-freezing file: states z and w (lines 1–8).
const tf = "[[state]]\nname = \"z\"\nx0 = 1\n[[state]]\nname = \"w\"\nx0 = 0\n[options]\nDCS.Formulation = \"step\"\n"

// badFiles are files with one mistake each and the exact error Parse
// gives: the line and column (1-based, bytes) of the key, value or
// expression character at fault, and the message. Lines 1–11 are head.
var badFiles = []struct {
	name, src, want string
}{
	{"toml syntax", "name = \"a\nx = 1\n", "bad.toml:1:10: TOML: basic strings cannot have new lines"},
	{"duplicate key", "name = \"a\"\nname = \"b\"\n", "bad.toml:2:1: TOML: key name is already defined"},
	{"unknown top key", "nmae = \"a\"\n", `bad.toml:1:1: unknown key "nmae" in the top level (valid keys: algebraic, constants, control, dynamics, let, name, ocp, options, parameter, simulate, state, step, subsystem, time, time_freezing)`},
	{"no states", "name = \"a\"\n", `bad.toml:1:1: missing key "state" at the top level`},
	{"state not array", "[state]\nname = \"x\"\n", `bad.toml:1:2: state must be an array of tables: write [[state]], not [state]`},
	{"unknown state key", "[[state]]\nname = \"x\"\nx0 = 0\nlowr = 1\n", `bad.toml:4:1: unknown key "lowr" in [[state]] 0 (valid keys: lower, name, size, upper, x0)`},
	{"state without name", "[[state]]\nx0 = 0\n", `bad.toml:1:3: missing key "name" in [[state]] 0`},
	{"state without x0", "[[state]]\nname = \"x\"\n", `bad.toml:1:3: missing key "x0" in [[state]] 0`},
	{"x0 wrong size", "[[state]]\nname = \"x\"\nsize = 3\nx0 = [1, 2]\n", `bad.toml:4:7: want 3 values, found 2`},
	{"x0 not a number", "[[state]]\nname = \"x\"\nx0 = \"1\"\n", `bad.toml:3:6: want a number, found a string`},
	{"x0 element not a number", "[[state]]\nname = \"x\"\nsize = 2\nx0 = [1, true]\n", `bad.toml:4:10: want a number, found a boolean`},
	{"bad size", "[[state]]\nname = \"x\"\nsize = 0\nx0 = []\n", `bad.toml:3:8: size must be between 1 and 10000, found 0`},
	{"invalid name", "[[state]]\nname = \"2x\"\nx0 = 0\n", `bad.toml:2:8: invalid name "2x": use letters, digits and _, starting with a letter or _`},
	{"duplicate name", head + "[[parameter]]\nname = \"v\"\nvalue = 1\n", `bad.toml:13:8: name "v" is already defined (a state)`},
	{"name is a function", "[[state]]\nname = \"sin\"\nx0 = 0\n", `bad.toml:2:8: name "sin" is a function`},
	{"bounds crossed", "[[state]]\nname = \"x\"\nx0 = 0\nlower = 2\nupper = 1\n", `bad.toml:4:9: lower bound 2 above upper bound 1 (component 0 of x)`},
	{"no dynamics", head, `bad.toml:1:1: missing key "dynamics" at the top level`},
	{"undefined name", head + "[dynamics]\nf = \"[v[1], w, u]\"\n", `bad.toml:13:13: undefined name "w" (defined here: q, u, v)`},
	{"dynamics wrong size", head + "[dynamics]\nf = \"[v]\"\n", `bad.toml:13:5: f has 2 elements, want 3`},
	{"index out of range", head + "[dynamics]\nf = \"[v[2], v, u]\"\n", `bad.toml:13:9: index 2 out of range: the vector has 2 elements (indices are 0-based: 0…1)`},
	{"index not constant", head + "[dynamics]\nf = \"[v[q], v]\"\n", `bad.toml:13:9: an index must be a constant integer`},
	{"index not integer", head + "[dynamics]\nf = \"[v[0.5], v]\"\n", `bad.toml:13:9: an index must be a constant integer`},
	{"parse error", head + "[dynamics]\nf = \"[q, v*(u+1]\"\n", `bad.toml:13:16: expected ")", found "]"`},
	{"trailing operator", head + "[dynamics]\nf = \"[q, v] +\"\n", `bad.toml:13:14: expected a number, a name, '(' or '[', found end of expression`},
	{"bad character", head + "[dynamics]\nf = \"[q, v] % 2\"\n", `bad.toml:13:13: unexpected character '%'`},
	{"empty expression", head + "[dynamics]\nf = \"\"\n", `bad.toml:13:6: empty expression`},
	{"unknown function", head + "[dynamics]\nf = \"[q, sinh(v)]\"\n", `bad.toml:13:10: unknown function "sinh" (functions: abs, atan, atan2, cos, exp, log, max, min, pow, sign, sin, sq, sqrt, sum, tan, tanh)`},
	{"wrong argument count", head + "[dynamics]\nf = \"[q, max(v)]\"\n", `bad.toml:13:10: max takes 2 arguments, got 1`},
	{"vector size mismatch", head + "[dynamics]\nf = \"[q, v + [1, 2, 3]]\"\n", `bad.toml:13:12: size mismatch: 2 and 3 elements`},
	{"division by zero", head + "[dynamics]\nf = \"[q, v/0]\"\n", `bad.toml:13:11: division by zero`},
	{"non-finite constant", head + "[dynamics]\nf = \"[q, v*log(-1)]\"\n", `bad.toml:13:12: the constant value is NaN`},
	{"not a string", head + "[dynamics]\nf = true\n", `bad.toml:13:5: want an expression (a string), found a boolean`},
	{"sign row wrong width", head + "[[subsystem]]\npsi = \"q\"\nsigns = [[1], [-1, 1]]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:14:16: row 1 of signs has 2 entries, want 1 (one per switching function)`},
	{"sign entry", head + "[[subsystem]]\npsi = \"q\"\nsigns = [[1], [0]]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:14:16: sign matrix entries must be 1 or -1, found 0`},
	{"sign rows repeated", head + "[[subsystem]]\npsi = \"q\"\nsigns = [[1], [1]]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:14:16: row 1 of signs repeats row 0`},
	{"mode without dynamics", head + "[[subsystem]]\npsi = \"q\"\nsigns = [[1], [-1]]\nmodes = [\"[1, v]\"]\n", `bad.toml:15:10: 1 modes for 2 rows of signs: every row needs its dynamics`},
	{"mode wrong size", head + "[[subsystem]]\npsi = \"q\"\nmodes = [\"[1, v]\", \"[2, q]\"]\n", `bad.toml:14:20: mode 1 has 2 elements, want 3`},
	{"alpha in OCP", "[[state]]\nname = \"x\"\nx0 = 1\n[[step]]\nname = \"a\"\npsi = \"x\"\n[dynamics]\nf = \"-a\"\n[ocp]\nN = 2\nT = 1\nMayer = \"x + a\"\n", `bad.toml:12:14: step selection "a" cannot appear in the OCP's expressions`},
	{"time in psi", "time = \"t\"\n[[state]]\nname = \"x\"\nx0 = 1\n[[subsystem]]\npsi = \"x - t\"\nmodes = [\"1\", \"-1\"]\n", `bad.toml:6:12: time "t" cannot appear in switching functions`},
	{"unknown option", head + "[dynamics]\nf = \"[q, v]\"\n[options]\nNfe = 3\n", `bad.toml:15:1: unknown key "Nfe" in [options] (valid keys: ActiveSetTol, CrossComp, DCS, DisableFESD, GammaH, MPCC, NFE, Representation, RhoH, Scheme, Stages, StepEquilibration)`},
	{"unknown option value", head + "[dynamics]\nf = \"[q, v]\"\n[options]\nCrossComp = \"fe-fe\"\n", `bad.toml:15:13: fesd: unknown CrossComp "fe-fe" (want one of FE_STAGE, STAGE_STAGE, STAGE_FE, FE_FE)`},
	{"unknown mpcc option", head + "[dynamics]\nf = \"[q, v]\"\n[options.MPCC]\nCompTolerance = 1e-9\n", `bad.toml:15:1: unknown key "CompTolerance" in [options.MPCC] (valid keys: ActiveTol, ColdDuals, ColdRestart, CompTol, Explore, Finish, FinishSigma, InexactFactor, Kappa, MaxSteps, PenaltyScaling, Relaxation, Sigma0, SigmaN, Steering, Update)`},
	{"option wrong type", head + "[dynamics]\nf = \"[q, v]\"\n[options]\nNFE = 2.5\n", `bad.toml:15:7: NFE: want an integer, found a number`},
	{"invalid options", head + "[dynamics]\nf = \"[q, v]\"\n[options]\nNFE = -1\n", `bad.toml:14:2: fesd: invalid options: NFE = -1 < 1`},
	{"simulate without controls", head + "[dynamics]\nf = \"[q, v]\"\n[simulate]\nTSim = 1\nNSim = 2\n", `bad.toml:14:2: the model has 1 controls: give U (constant) or UTable (piecewise constant)`},
	{"simulate TSim", head + "[dynamics]\nf = \"[q, v]\"\n[simulate]\nTSim = -1\nNSim = 2\nU = 0\n", `bad.toml:15:8: TSim must be positive, found -1`},
	{"UTable times", head + "[dynamics]\nf = \"[q, v]\"\n[simulate]\nTSim = 1\nNSim = 2\nUTable = [[0, 1], [0, 2]]\n", `bad.toml:17:20: the times of UTable must increase: row 1 at 0 after 0`},
	{"ocp N", head + "[dynamics]\nf = \"[q, v]\"\n[ocp]\nN = 0\nT = 1\n", `bad.toml:15:5: N must be between 1 and 100000, found 0`},
	{"ocp UInit rows", head + "[dynamics]\nf = \"[q, v]\"\n[ocp]\nN = 3\nT = 1\n[ocp.Start]\nUInit = [[1], [2]]\n", `bad.toml:18:11: UInit has 2 rows, want 1 or N = 3`},
	{"ocp constraint key", head + "[dynamics]\nf = \"[q, v]\"\n[ocp]\nN = 3\nT = 1\nTerminal = [{ G = \"q\", At = \"stage_ends\" }]\n", `bad.toml:17:24: unknown key "At" in [[ocp.Terminal]] 0 (valid keys: G, L, U)`},
	{"ocp Where", head + "[dynamics]\nf = \"[q, v]\"\n[ocp]\nN = 3\nT = 1\nPath = [{ G = \"q\", L = 0, At = \"everywhere\" }]\n", `bad.toml:17:32: fesd: unknown Where "everywhere" (want one of stage_ends, element_boundaries, stage_points)`},
	{"multi-line string", head + "[dynamics]\nf = \"\"\"\n[q,\n v * z]\"\"\"\n", `bad.toml:15:6: undefined name "z" (defined here: q, u, v)`},
	{"literal string", head + "[dynamics]\nf = '[q, v * z]'\n", `bad.toml:13:14: undefined name "z" (defined here: q, u, v)`},
	{"escaped string", head + "[dynamics]\nf = \"[q, v * \\u007a]\"\n", `bad.toml:13:5: undefined name "z" (defined here: q, u, v)`},
	{"array element", head + "[dynamics]\nf = [\"q\", \"v[0]\", \"v[1] + z\"]\n", `bad.toml:13:27: undefined name "z" (defined here: q, u, v)`},
	{"let undefined", head + "[let]\nw = \"2*v\"\nz = \"w + y\"\n", `bad.toml:14:10: undefined name "y" (defined here: q, u, v, w)`},
	{"let redefines", head + "[let]\nv = \"2*q\"\n", `bad.toml:13:1: name "v" is already defined (a state)`},
	{"let too long", head + "[let]\na = \"[v, v, v, v, v, v, v, v, v, v]\"\nb = \"[a, a, a, a, a, a, a, a, a, a]\"\nc = \"[b, b, b, b, b, b, b, b, b, b]\"\nd = \"[c, c, c, c, c, c, c, c, c, c]\"\ne = \"[d, d, d, d, d, d, d, d, d, d]\"\n", `bad.toml:17:6: vector longer than 100000 elements`},
	{"modes without signs", head + "[[subsystem]]\npsi = [\"q\", \"u\"]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:14:10: 2 modes for 2 switching functions: every one of the 4 sign patterns needs its dynamics`},
	{"XLinear and XInit", head + "[dynamics]\nf = \"[q, v]\"\n[ocp]\nN = 2\nT = 1\n[ocp.Start]\nXInit = [[0, 0, 0]]\nXLinear = [1, 1, 1]\n", `bad.toml:19:1: give either XInit or XLinear, not both`},
	{"time freezing with dynamics", "[dynamics]\nf = \"1\"\n" + tf + "[time_freezing]\nq = \"z\"\n", `bad.toml:1:2: "dynamics" cannot be combined with [time_freezing], which builds the switching functions, modes and clock itself`},
	{"time freezing wrong block", tf + "[time_freezing]\nq = \"w\"\nv = \"z\"\n", `bad.toml:10:5: q must name [[state]] 0: time freezing needs exactly two state blocks, the coordinates q and then the velocities v`},
	{"time freezing mass", tf + "[time_freezing]\nq = \"z\"\nv = \"w\"\nclock = \"t\"\nclock_x0 = 0\nmass = [\"1\", \"2\"]\nforces = \"-1\"\n", `bad.toml:14:9: mass must be an array of 1 rows of 1 expressions`},
	{"time freezing mu", tf + "[time_freezing]\nq = \"z\"\nv = \"w\"\nclock = \"t\"\nclock_x0 = 0\nmass = [[\"1\"]]\nforces = \"-1\"\n[[time_freezing.contact]]\ngap = \"z\"\nmu = 0.5\n", `bad.toml:18:1: mu needs tangent or tangent_pos (a contact without them is frictionless)`},
	{"time freezing formulation", tf + "[time_freezing]\nq = \"z\"\nv = \"w\"\nclock = \"t\"\nclock_x0 = 0\nmass = [[\"1\"]]\nforces = \"-1\"\noptions.Formulation = \"step\"\n[[time_freezing.contact]]\ngap = \"z\"\n", `bad.toml:16:9: the formulation is [options] DCS.Formulation`},
	{"region out of range", head + "[[subsystem]]\npsi = [\"q\", \"u\"]\nregions = [\"positive(0)\", \"base(4)\"]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:14:33: base set 4 out of range: 0…3 (0-based)`},
	{"region function", head + "[[subsystem]]\npsi = [\"q\", \"u\"]\nregions = [\"positive(0)\", \"minus(base(3))\"]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:14:28: unknown region function "minus" (base, positive, negative, union, intersection, complement, difference)`},
	{"regions no partition", head + "[[subsystem]]\npsi = [\"q\", \"u\"]\nregions = [\"positive(0)\", \"positive(1)\"]\nmodes = [\"[1, v]\", \"[2, v]\"]\n", `bad.toml:12:3: invalid model: dcs: regions overlap: subsystem 0: Regions[0][1]: both contain base set 0`},
	{"deep nesting", head + "[dynamics]\nf = \"" + strings.Repeat("(", 200) + "q\"\n", `bad.toml:13:106: expression nested more than 100 levels deep`},
}

// TestBadFiles checks the exact position and message of every bad file
// (the TOML parser's and the library's messages included).
func TestBadFiles(t *testing.T) {
	if len(badFiles) < 30 {
		t.Fatalf("%d bad files, want at least 30", len(badFiles))
	}
	for _, c := range badFiles {
		m, err := Parse("bad.toml", []byte(c.src))
		if err == nil {
			t.Errorf("%s: no error (model %v)", c.name, m.Name)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrModel) {
			t.Errorf("%s: error %T %v is not an *Error", c.name, err, err)
		}
		if got := err.Error(); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}
