package modelfile

import (
	"errors"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
)

// TestSetOption sets options by their text forms and rejects unknown names,
// bad values and invalid combinations, leaving the options unchanged.
func TestSetOption(t *testing.T) {
	m := readModel(t, "turbocar.toml")
	for _, kv := range [][2]string{{"NFE", "4"}, {"DCS.Formulation", "stewart"}, {"MPCC.CompTol", "1e-8"}, {"CrossComp", "FE_FE"}, {"MPCC.Relaxation", "ScholtesEq"}, {"DisableFESD", "false"}} {
		if err := m.SetOption(kv[0], kv[1]); err != nil {
			t.Fatalf("%s = %s: %v", kv[0], kv[1], err)
		}
	}
	o := m.Options
	if o.NFE != 4 || o.DCS.Formulation != dcs.Stewart || o.MPCC.CompTol != 1e-8 || o.CrossComp != fesd.FEFE || o.MPCC.Relaxation != mpcc.ScholtesEq {
		t.Errorf("options %+v", o)
	}
	for _, c := range []struct{ key, value, want string }{
		{"Nfe", "3", `unknown option "Nfe"`},
		{"DCS.Formulaton", "step", `unknown option "DCS.Formulaton"`},
		{"NFE.X", "1", "NFE is not a group of options"},
		{"MPCC", "1", "MPCC is a group of options"},
		{"CrossComp", "fe-fe", `unknown CrossComp "fe-fe" (want one of FE_STAGE, STAGE_STAGE, STAGE_FE, FE_FE)`},
		{"NFE", "2.5", `want an integer, found "2.5"`},
		{"GammaH", "x", `want a number, found "x"`},
		{"DisableFESD", "yes", `want true or false, found "yes"`},
		{"NFE", "-1", "fesd: invalid options"},
	} {
		err := m.SetOption(c.key, c.value)
		if !errors.Is(err, ErrOption) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s = %s: %v, want %q", c.key, c.value, err, c.want)
		}
	}
	if m.Options != o {
		t.Errorf("options changed by failed sets: %+v, want %+v", m.Options, o)
	}
	b := readModel(t, "bouncingball.toml")
	if err := b.SetOption("DCS.Formulation", "stewart"); !errors.Is(err, ErrOption) {
		t.Errorf("time freezing: %v", err)
	}
}
