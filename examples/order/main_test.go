package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/rk"
)

// TestTinySweep runs Radau IIA n_s = 2 on IRMA with N_sim = 9, 18 (h̄ =
// 3.7 and 1.85 min), FESD on and off, and checks the shape of order.json
// and that FESD converges faster than standard time stepping (measured:
// slopes 2.84 and 1.03).
func TestTinySweep(t *testing.T) {
	dir := t.TempDir()
	o := defaultOptions()
	o.Schemes, o.Stages, o.NSim, o.Out, o.Quiet = []rk.Family{rk.FamilyRadauIIA}, []int{2}, []int{9, 18}, dir, true
	st, err := run(context.Background(), io.Discard, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "order.json"))
	if err != nil {
		t.Fatal(err)
	}
	var js struct {
		Runs []struct {
			Scheme *string `json:"scheme"`
			NS     *int    `json:"ns"`
			Order  *int    `json:"order"`
			FESD   *bool   `json:"fesd"`
			Points []struct {
				H      *float64 `json:"h"`
				HMax   *float64 `json:"h_max"`
				Error  *float64 `json:"error"`
				Status *string  `json:"status"`
			} `json:"points"`
			Slope *float64 `json:"slope"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(js.Runs))
	}
	slope := map[bool]float64{}
	for _, r := range js.Runs {
		if r.Scheme == nil || *r.Scheme != "radau_iia" || r.NS == nil || *r.NS != 2 || r.Order == nil || *r.Order != 3 || r.FESD == nil || len(r.Points) != 2 {
			t.Fatalf("run %+v", r)
		}
		for _, p := range r.Points {
			if p.H == nil || p.Status == nil || strings.HasPrefix(*p.Status, "ok") != (p.Error != nil) {
				t.Errorf("point %+v", p)
			}
			// Σh = T per step, so the longest element is at least h̄,
			// and FESD keeps h ≤ (1 + γ_h)h̄ = 2h̄.
			if p.Error != nil && (p.HMax == nil || *p.HMax < *p.H*(1-1e-9) || *p.HMax > 2**p.H*(1+1e-9)) {
				t.Errorf("h_max %v outside [h̄, 2h̄], h̄ = %v", p.HMax, *p.H)
			}
		}
		if r.Slope == nil {
			t.Fatalf("fesd %v: no slope (points %+v)", *r.FESD, r.Points)
		}
		slope[*r.FESD] = *r.Slope
	}
	if !(slope[true] > slope[false]+1) {
		t.Errorf("FESD slope %.2f not above standard %.2f + 1", slope[true], slope[false])
	}
	if s := slope[true]; s < 2.5 || s > 3.5 {
		t.Errorf("FESD slope %.2f, want 3 ± 0.5", s)
	}
	for _, f := range []string{"order.png", "order.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	t.Logf("slopes: FESD %.2f, standard %.2f (%.1f s)", slope[true], slope[false], st.Elapsed)
}

// TestFlags parses the list flags.
func TestFlags(t *testing.T) {
	o := defaultOptions()
	if err := parseFlags(&o, "gauss", "1,3", "2,4", "off"); err != nil {
		t.Fatal(err)
	}
	if len(o.Schemes) != 1 || o.Schemes[0] != rk.FamilyGaussLegendre || !reflect.DeepEqual(o.Stages, []int{1, 3}) ||
		!reflect.DeepEqual(o.NSim, []int{2, 4}) || !reflect.DeepEqual(o.FESD, []bool{false}) {
		t.Errorf("parsed %+v", o)
	}
	for _, bad := range [][4]string{{"euler", "1", "", "on"}, {"radau", "0", "", "on"}, {"radau", "1", "", "maybe"}, {"radau", "1", "0", "on"}} {
		o := defaultOptions()
		if err := parseFlags(&o, bad[0], bad[1], bad[2], bad[3]); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}
