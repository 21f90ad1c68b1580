package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/fesd"
	"github.com/fesd-go/fesd/mpcc"
	"gonum.org/v1/plot"
)

func TestMakeDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	got, err := MakeDir(dir)
	if err != nil || got != dir {
		t.Fatalf("MakeDir = %q, %v", got, err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("not a directory: %v", err)
	}
	if _, err := MakeDir(dir); err != nil { // existing folder is fine
		t.Fatal(err)
	}
	if _, err := MakeDir(""); err == nil {
		t.Fatal("empty dir: no error")
	}
}

func TestWriteJSONRoundTrip(t *testing.T) {
	type rec struct {
		Name string    `json:"name"`
		X    []float64 `json:"x"`
		Sw   []Switch  `json:"switches"`
	}
	in := rec{"case", []float64{1.0 / 3, -2e-300, 12345.678901234567}, []Switch{{T: 1.0 / 3, Psi: 2, Kind: "crossing"}}}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := WriteJSON(path, in); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("\n  \"name\"")) || !bytes.HasSuffix(b, []byte("}\n")) {
		t.Errorf("not indented:\n%s", b)
	}
	var out rec
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in, out) {
		t.Errorf("round trip: %+v != %+v", out, in)
	}
	if !bytes.Contains(b, []byte(`"t": 0.3333333333333333`)) || !bytes.Contains(b, []byte(`"psi": 2`)) {
		t.Errorf("switch shape:\n%s", b)
	}
	if err := WriteJSON(path, math.NaN()); err == nil {
		t.Error("NaN: no error")
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestWriteCSVFullPrecision(t *testing.T) {
	rows := [][]float64{
		{0, 1.0 / 3, math.Pi},
		{1e-17, -math.MaxFloat64, math.SmallestNonzeroFloat64},
		{math.NaN(), math.Inf(1), math.Inf(-1)},
	}
	path := filepath.Join(t.TempDir(), "a.csv")
	if err := WriteCSV(path, []string{"t", "x", "y"}, rows); err != nil {
		t.Fatal(err)
	}
	recs := readCSV(t, path)
	if len(recs) != 4 || strings.Join(recs[0], ",") != "t,x,y" {
		t.Fatalf("records %q", recs)
	}
	for i, r := range recs[1:] {
		for j, s := range r {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			want := rows[i][j]
			if v != want && !(math.IsNaN(v) && math.IsNaN(want)) {
				t.Errorf("row %d col %d: %q parses to %v, want %v", i, j, s, v, want)
			}
		}
	}
	if err := WriteCSV(path, []string{"t"}, [][]float64{{1, 2}}); !errors.Is(err, ErrShape) {
		t.Errorf("short header: %v", err)
	}
}

func TestWriteColumnsAndTrajectoryCSV(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.csv")
	if err := WriteColumnsCSV(p, []string{"t", "x"}, []float64{0, 0.5}, []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	if got := readCSV(t, p); !reflect.DeepEqual(got, [][]string{{"t", "x"}, {"0", "1"}, {"0.5", "2"}}) {
		t.Errorf("columns: %q", got)
	}
	if err := WriteColumnsCSV(p, []string{"t", "x"}, []float64{0, 0.5}, []float64{1}); !errors.Is(err, ErrShape) {
		t.Errorf("ragged: %v", err)
	}
	if err := WriteTrajectoryCSV(p, "", nil, []float64{0, 1}, [][]float64{{1, 2}, {3, 4}}); err != nil {
		t.Fatal(err)
	}
	if got := readCSV(t, p); !reflect.DeepEqual(got, [][]string{{"t", "x0", "x1"}, {"0", "1", "2"}, {"1", "3", "4"}}) {
		t.Errorf("trajectory: %q", got)
	}
	if err := WriteTrajectoryCSV(p, "time", []string{"q", "v"}, []float64{0}, [][]float64{{1}}); !errors.Is(err, ErrShape) {
		t.Errorf("short state: %v", err)
	}
}

func TestKindNames(t *testing.T) {
	want := map[fesd.SwitchKind]string{
		fesd.Crossing:        "crossing",
		fesd.EnteringSliding: "entering_sliding",
		fesd.LeavingSliding:  "leaving_sliding",
		fesd.Spontaneous:     "spontaneous",
	}
	for k, w := range want {
		if got := KindName(k); got != w {
			t.Errorf("KindName(%v) = %q, want %q", k, got, w)
		}
		// The mapping agrees with fesd's String.
		if got := strings.ReplaceAll(k.String(), " ", "_"); got != w {
			t.Errorf("String %q does not map to %q", k.String(), w)
		}
	}
}

func TestSwitchesNumbering(t *testing.T) {
	g := ad.NewGraph()
	x := g.SymVec("x", 3)
	m := dcs.NewModel(g, x, nil, nil)
	one := ad.Vec{g.Const(1), g.Const(0), g.Const(0)}
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[0]}, F: []ad.Vec{one, one}})
	m.AddSubsystem(dcs.Subsystem{Psi: ad.Vec{x[1], x[2]}, F: []ad.Vec{one, one, one, one}})
	sw := Switches(m, []fesd.Switch{
		{Time: 0.5, Subsystem: 1, Psi: 1, Kind: fesd.EnteringSliding},
		{Time: 0.75, Subsystem: 0, Psi: 0, Kind: fesd.Crossing},
	})
	want := []Switch{{0.5, 2, "entering_sliding"}, {0.75, 0, "crossing"}}
	if !reflect.DeepEqual(sw, want) {
		t.Errorf("Switches = %+v, want %+v", sw, want)
	}
	if got := SwitchTimes(sw); !reflect.DeepEqual(got, []float64{0.5, 0.75}) {
		t.Errorf("SwitchTimes = %v", got)
	}
	dir := t.TempDir()
	if err := WriteSwitchesCSV(filepath.Join(dir, "sw.csv"), sw); err != nil {
		t.Fatal(err)
	}
	got := readCSV(t, filepath.Join(dir, "sw.csv"))
	if !reflect.DeepEqual(got, [][]string{{"t", "psi", "kind"}, {"0.5", "2", "entering_sliding"}, {"0.75", "0", "crossing"}}) {
		t.Errorf("csv %q", got)
	}
	if err := WriteSwitchesJSON(filepath.Join(dir, "sw.json"), nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "sw.json"))
	if !bytes.Contains(b, []byte(`"switches": []`)) {
		t.Errorf("empty switches: %s", b)
	}
}

func TestFilterXY(t *testing.T) {
	x := []float64{-1, 0, 1, 2, math.NaN(), 3}
	y := []float64{1, 1, 0, 4, 5, math.Inf(1)}
	xs, ys, d := FilterXY(x, y, true, true)
	if !reflect.DeepEqual(xs, []float64{2}) || !reflect.DeepEqual(ys, []float64{4}) || d != 5 {
		t.Errorf("log-log: %v %v dropped %d", xs, ys, d)
	}
	xs, _, d = FilterXY(x, y, false, false)
	if !reflect.DeepEqual(xs, []float64{-1, 0, 1, 2}) || d != 2 {
		t.Errorf("linear: %v dropped %d", xs, d)
	}
	if x[0] != -1 || y[2] != 0 {
		t.Error("inputs modified")
	}
}

// checkImages checks the PNG magic and the SVG root of SavePlot's files.
func checkImages(t *testing.T, files []string) {
	t.Helper()
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	png, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("%s: no PNG magic", files[0])
	}
	svg, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("<svg")) {
		t.Errorf("%s: no <svg", files[1])
	}
}

func TestSaveLinePlot(t *testing.T) {
	dir := t.TempDir()
	lp := LinePlot{
		Title: "test", XLabel: "t", YLabel: "x",
		Series: []Series{
			{Name: "a", X: []float64{0, 1, 2}, Y: []float64{0, 1, 4}},
			{Name: "b", X: []float64{0, 1, 2}, Y: []float64{1, 0, -1}, Points: true, Dashed: true},
		},
		HLines: []float64{0.5},
		VLines: []float64{1.0 / 3, 1.5},
	}
	p, err := lp.Plot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := SavePlot(p, 0, 0, filepath.Join(dir, "line.png"))
	if err != nil {
		t.Fatal(err)
	}
	if files[0] != filepath.Join(dir, "line.png") || files[1] != filepath.Join(dir, "line.svg") {
		t.Errorf("files %v", files)
	}
	checkImages(t, files)

	bad := LinePlot{Series: []Series{{X: []float64{1}, Y: nil}}}
	if _, err := bad.Plot(); !errors.Is(err, ErrShape) {
		t.Errorf("ragged series: %v", err)
	}
}

// A log axis with values ≤ 0 in the series and reference lines must not
// panic (gonum/plot's LogScale panics on them).
func TestLogAxesDropNonPositive(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]LinePlot{
		"loglog": {
			LogX: true, LogY: true,
			Series: []Series{{Name: "err", X: []float64{0, 1e-3, 1e-2, 1e-1, -1}, Y: []float64{1, 1e-9, 0, 1e-5, 2}, Points: true}},
			HLines: []float64{0, 1e-6},
			VLines: []float64{-1, 0.05},
		},
		"all dropped": {
			LogY:   true,
			Series: []Series{{Name: "zero", X: []float64{0, 1}, Y: []float64{0, -1}}},
			HLines: []float64{0},
		},
		"single value": {
			LogY:   true,
			Series: []Series{{X: []float64{0, 1}, Y: []float64{0.5, 0.5}}},
		},
	}
	for name, lp := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := lp.Plot()
			if err != nil {
				t.Fatal(err)
			}
			files, err := SavePlot(p, 0, 0, filepath.Join(dir, strings.ReplaceAll(name, " ", "_")))
			if err != nil {
				t.Fatal(err)
			}
			checkImages(t, files)
		})
	}
}

// TestLogTicksLabels checks the labels of the log-axis ticks: the powers of
// ten, printed short although gonum reaches them by repeated multiplication
// (from 1e-12, its tenth step is 0.0009999999999999998 and plot.LogTicks
// labels it so; its last step falls short of 1, so it adds the decade 10,
// which the axis drops as out of range).
func TestLogTicksLabels(t *testing.T) {
	for _, c := range []struct {
		min, max float64
		want     []string
	}{
		{1e-3, 1, []string{"0.001", "0.01", "0.1", "1"}},
		{1e-12, 1, []string{"1e-12", "1e-11", "1e-10", "1e-09", "1e-08", "1e-07", "1e-06", "1e-05", "0.0001", "0.001", "0.01", "0.1", "1", "10"}},
		{2e-7, 3e-4, []string{"1e-06", "1e-05", "0.0001", "0.001"}},
		{0.5, 2e6, []string{"1", "10", "100", "1000", "10000", "100000", "1e+06", "1e+07"}},
	} {
		ts := LogTicks{}.Ticks(c.min, c.max)
		var got []string
		for _, tk := range ts {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("LogTicks{}.Ticks(%g, %g) labels %q, want %q", c.min, c.max, got, c.want)
		}
		// The ticks themselves are gonum's: same values, same count.
		ref := plot.LogTicks{Prec: -1}.Ticks(c.min, c.max)
		if len(ts) != len(ref) {
			t.Fatalf("LogTicks{}.Ticks(%g, %g): %d ticks, gonum %d", c.min, c.max, len(ts), len(ref))
		}
		for i := range ts {
			if ts[i].Value != ref[i].Value || (ts[i].Label == "") != (ref[i].Label == "") {
				t.Errorf("LogTicks{}.Ticks(%g, %g)[%d] = %+v, gonum %+v", c.min, c.max, i, ts[i], ref[i])
			}
		}
	}
	for v, want := range map[float64]string{0.09999999999999998: "0.1", 1.0000000000000002e-05: "1e-05", 0.25: "0.25", 1e300: "1e+300"} {
		if got := tickLabel(v); got != want {
			t.Errorf("tickLabel(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestTiled(t *testing.T) {
	panels := []LinePlot{
		{Title: "a", Series: []Series{{Name: "x", X: []float64{0, 1}, Y: []float64{0, 1}}}, VLines: []float64{0.5}},
		{Title: "b", LogY: true, Series: []Series{{X: []float64{0, 1}, Y: []float64{0, 1}}}},
		{Title: "c"},
	}
	tp, err := Tiled(2, 2, panels...)
	if err != nil {
		t.Fatal(err)
	}
	files, err := SavePlot(tp, 20*DefaultWidth/16, 0, filepath.Join(t.TempDir(), "tiled"))
	if err != nil {
		t.Fatal(err)
	}
	checkImages(t, files)
	if _, err := Tiled(1, 2, panels...); !errors.Is(err, ErrShape) {
		t.Errorf("too many panels: %v", err)
	}
}

func TestSimPoints(t *testing.T) {
	res := &fesd.SimResult{Trajectory: fesd.Trajectory{
		T:      []float64{0, 1, 2},
		X:      [][]float64{{0}, {10}, {20}},
		PointT: []float64{0.5, 1, 1.5, 2},
		PointX: [][]float64{{5}, {10.5}, {15}, {20.5}},
	}}
	tt, x := SimPoints(res)
	if !reflect.DeepEqual(tt, []float64{0, 0.5, 1, 1.5, 2}) {
		t.Errorf("t = %v", tt)
	}
	// Boundary states win over coinciding stage states.
	if got := Column(x, 0); !reflect.DeepEqual(got, []float64{0, 5, 10, 15, 20}) {
		t.Errorf("x = %v", got)
	}
}

// TestStepClasses: branch steps are counted apart, the homotopy steps by
// their certified class in order of first appearance.
func TestStepClasses(t *testing.T) {
	steps := []fesd.StepRecord{{Branch: true}, {Stationarity: mpcc.SStationary}, {Branch: true}, {Stationarity: mpcc.NotCertified}, {Stationarity: mpcc.SStationary}}
	want := "2 on their branch, 3 by the homotopy (S: 2, NotCertified: 1)"
	if got := StepClasses(steps); got != want {
		t.Errorf("StepClasses = %q, want %q", got, want)
	}
}

// TestProgramConventions: rounded times, [] for nil lists, -h recognized,
// and no terminal behind a buffer or a regular file.
func TestProgramConventions(t *testing.T) {
	if got := Time(999.9999999999999); got != "1000" {
		t.Errorf("Time(999.9999999999999) = %q, want 1000", got)
	}
	if got := Time(0.1 + 0.2); got != "0.3" {
		t.Errorf("Time(0.1 + 0.2) = %q, want 0.3", got)
	}
	b, err := json.Marshal(struct{ L []int }{List[int](nil)})
	if err != nil || string(b) != `{"L":[]}` {
		t.Errorf("List(nil) encodes as %s (%v)", b, err)
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse([]string{"-h"}); !IsHelp(fmt.Errorf("wrapped: %w", err)) {
		t.Errorf("IsHelp(%v) = false", err)
	}
	if IsTerminal(&bytes.Buffer{}) {
		t.Error("a buffer is a terminal")
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("a regular file is a terminal")
	}
}
