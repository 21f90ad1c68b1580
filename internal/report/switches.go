package report

import (
	"strconv"
	"strings"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
)

// Switch is one detected switch in the shared output shape
// {"t": …, "psi": j, "kind": "…"}.
type Switch struct {
	// T is the switching time (an element boundary of the FESD grid).
	T float64 `json:"t"`
	// Psi is the 0-based index of the switching function in the order of
	// dcs.Model.EvalPsi: the ψ of all subsystems in order, then the
	// general steps.
	Psi int `json:"psi"`
	// Kind is KindName of the fesd.SwitchKind.
	Kind string `json:"kind"`
}

// KindName returns the lowercase name of a switch kind with words joined by
// underscores: "crossing", "entering_sliding", "leaving_sliding",
// "spontaneous".
func KindName(k fesd.SwitchKind) string {
	switch k {
	case fesd.Crossing:
		return "crossing"
	case fesd.EnteringSliding:
		return "entering_sliding"
	case fesd.LeavingSliding:
		return "leaving_sliding"
	case fesd.Spontaneous:
		return "spontaneous"
	}
	return strings.ReplaceAll(strings.ToLower(k.String()), " ", "_")
}

// PsiIndex returns the index of ψ_j of subsystem sub (−1: the general steps
// of Model.Steps) in the order of m.EvalPsi. With a nil model it returns j.
func PsiIndex(m *dcs.Model, sub, j int) int {
	if m == nil {
		return j
	}
	off := 0
	for k, s := range m.Subsystems {
		if k == sub {
			return off + j
		}
		off += len(s.Psi)
	}
	// General steps come after all subsystems.
	return off + j
}

// Switches converts fesd switches to the shared shape, numbering ψ as
// PsiIndex does for model m (nil: the index within the subsystem).
func Switches(m *dcs.Model, sw []fesd.Switch) []Switch {
	out := make([]Switch, len(sw))
	for i, s := range sw {
		out[i] = Switch{T: s.Time, Psi: PsiIndex(m, s.Subsystem, s.Psi), Kind: KindName(s.Kind)}
	}
	return out
}

// SwitchTimes returns the times of the switches (for vertical lines).
func SwitchTimes(sw []Switch) []float64 {
	t := make([]float64, len(sw))
	for i, s := range sw {
		t[i] = s.T
	}
	return t
}

// WriteSwitchesCSV writes the switches to path with the header t,psi,kind.
func WriteSwitchesCSV(path string, sw []Switch) error {
	rows := make([][]string, len(sw))
	for i, s := range sw {
		rows[i] = []string{FormatFloat(s.T), strconv.Itoa(s.Psi), s.Kind}
	}
	return WriteTableCSV(path, []string{"t", "psi", "kind"}, rows)
}

// WriteSwitchesJSON writes {"switches": [...]} to path.
func WriteSwitchesJSON(path string, sw []Switch) error {
	if sw == nil {
		sw = []Switch{}
	}
	return WriteJSON(path, struct {
		Switches []Switch `json:"switches"`
	}{sw})
}

// SimPoints returns the element boundaries and RK stage points of a
// simulation merged in time order, with the states there: a denser curve
// than res.T, res.X for plots and CSV files. Stage points that coincide with
// an element boundary (Radau IIA's last stage) appear once, with the
// boundary's state.
func SimPoints(res *fesd.SimResult) (t []float64, x [][]float64) {
	t = make([]float64, 0, len(res.T)+len(res.PointT))
	x = make([][]float64, 0, len(res.T)+len(res.PointT))
	i, k := 0, 0
	for i < len(res.T) || k < len(res.PointT) {
		if k >= len(res.PointT) || (i < len(res.T) && res.T[i] <= res.PointT[k]) {
			if i < len(res.T) && k < len(res.PointT) && res.T[i] == res.PointT[k] {
				k++
			}
			if len(t) > 0 && t[len(t)-1] == res.T[i] {
				x[len(x)-1] = res.X[i]
			} else {
				t = append(t, res.T[i])
				x = append(x, res.X[i])
			}
			i++
			continue
		}
		if len(t) == 0 || t[len(t)-1] != res.PointT[k] {
			t = append(t, res.PointT[k])
			x = append(x, res.PointX[k])
		}
		k++
	}
	return t, x
}

// Column returns component j of every state in x (for plotting one state
// against time).
func Column(x [][]float64, j int) []float64 {
	c := make([]float64, len(x))
	for i, v := range x {
		c[i] = v[j]
	}
	return c
}

// StepClasses summarizes how the steps of a simulation were solved: on
// their predicted branch (complementarity exactly zero), or by the
// homotopy with the certified class of its point (mpcc.Stationarity), as
// "N on their branch, M homotopy (S: a, B: b, …)".
func StepClasses(steps []fesd.StepRecord) string {
	branch := 0
	classes := map[string]int{}
	var order []string
	for _, s := range steps {
		if s.Branch {
			branch++
			continue
		}
		c := s.Stationarity.String()
		if classes[c] == 0 {
			order = append(order, c)
		}
		classes[c]++
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(branch) + " on their branch, " + strconv.Itoa(len(steps)-branch) + " by the homotopy")
	if len(order) > 0 {
		b.WriteString(" (")
		for i, c := range order {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(c + ": " + strconv.Itoa(classes[c]))
		}
		b.WriteString(")")
	}
	return b.String()
}
