package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"go-hep.org/x/hep/hplot"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Default sizes of a saved plot.
const (
	DefaultWidth  = 16 * vg.Centimeter
	DefaultHeight = 10 * vg.Centimeter
)

// Series is one named curve of a LinePlot.
type Series struct {
	// Name is the legend entry (no entry when empty).
	Name string
	// X and Y are the data, of equal length.
	X, Y []float64
	// Points adds a marker at every data point; NoLine leaves out the
	// connecting line (a scatter plot when Points is set).
	Points bool
	NoLine bool
	// Color overrides the automatic color (plotutil.Color(i) for the i-th
	// series) when not nil.
	Color color.Color
	// Dashed draws the line dashed.
	Dashed bool
}

// LinePlot describes a plot of several named series with optional log axes,
// horizontal reference lines and vertical lines (for example at switch
// times).
type LinePlot struct {
	Title, XLabel, YLabel string
	Series                []Series
	// LogX and LogY select logarithmic axes. Points with a coordinate ≤ 0
	// on a log axis are dropped before plotting (gonum/plot panics on
	// them), as are reference lines at values ≤ 0.
	LogX, LogY bool
	// HLines are horizontal reference lines at these y values (gray,
	// dashed).
	HLines []float64
	// VLines are vertical lines at these x values (red, dotted), for
	// example SwitchTimes.
	VLines []float64
	// NoLegend hides the legend (shown by default when a series has a
	// name).
	NoLegend bool
	// LegendBottom puts the legend in the lower right corner instead of
	// the upper right (for example on convergence plots, whose data rise
	// to the right).
	LegendBottom bool
}

// FilterXY returns the points (x[i], y[i]) that can be drawn: both
// coordinates finite, and positive on a log axis. It returns the number of
// dropped points. The inputs are not modified.
func FilterXY(x, y []float64, logX, logY bool) (xs, ys []float64, dropped int) {
	n := min(len(x), len(y))
	xs = make([]float64, 0, n)
	ys = make([]float64, 0, n)
	for i := range n {
		if !drawable(x[i], logX) || !drawable(y[i], logY) {
			dropped++
			continue
		}
		xs = append(xs, x[i])
		ys = append(ys, y[i])
	}
	return xs, ys, dropped + max(len(x), len(y)) - n
}

// drawable reports whether v can be placed on an axis (log or linear).
func drawable(v float64, log bool) bool {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return false
	}
	return !log || v > 0
}

// Plot builds a new *hplot.Plot from the description.
func (lp *LinePlot) Plot() (*hplot.Plot, error) {
	p := hplot.New()
	if err := lp.Draw(p); err != nil {
		return nil, err
	}
	return p, nil
}

// Draw adds the description to an existing plot p, for example a panel of
// an *hplot.TiledPlot. It returns an error if a series has X and Y of
// different lengths.
func (lp *LinePlot) Draw(p *hplot.Plot) error {
	if lp.Title != "" {
		p.Title.Text = lp.Title
	}
	if lp.XLabel != "" {
		p.X.Label.Text = lp.XLabel
	}
	if lp.YLabel != "" {
		p.Y.Label.Text = lp.YLabel
	}
	named := false
	for i, s := range lp.Series {
		if len(s.X) != len(s.Y) {
			return fmt.Errorf("%w: series %q has %d x and %d y values", ErrShape, s.Name, len(s.X), len(s.Y))
		}
		xs, ys, _ := FilterXY(s.X, s.Y, lp.LogX, lp.LogY)
		if len(xs) == 0 {
			continue
		}
		c := s.Color
		if c == nil {
			c = plotutil.Color(i)
		}
		xy := hplot.ZipXY(xs, ys)
		var thumbs []plot.Thumbnailer
		if !s.NoLine {
			l, err := plotter.NewLine(xy)
			if err != nil {
				return fmt.Errorf("report: series %q: %w", s.Name, err)
			}
			l.Color = c
			l.Width = vg.Points(1.2)
			if s.Dashed {
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
			}
			p.Add(l)
			thumbs = append(thumbs, l)
		}
		if s.Points {
			sc, err := plotter.NewScatter(xy)
			if err != nil {
				return fmt.Errorf("report: series %q: %w", s.Name, err)
			}
			sc.Color = c
			sc.Radius = vg.Points(1.5)
			sc.Shape = draw.CircleGlyph{}
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		if s.Name != "" {
			p.Legend.Add(s.Name, thumbs...)
			named = true
		}
	}
	for _, y := range lp.HLines {
		if !drawable(y, lp.LogY) {
			continue
		}
		h := hplot.HLine(y, nil, nil)
		h.Line.Color = color.Gray{Y: 120}
		h.Line.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(h)
	}
	for _, x := range lp.VLines {
		if !drawable(x, lp.LogX) {
			continue
		}
		v := hplot.VLine(x, nil, nil)
		v.Line.Color = color.RGBA{R: 200, A: 255}
		v.Line.Width = vg.Points(0.7)
		v.Line.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(v)
	}
	if lp.LogX {
		logAxis(&p.X)
	}
	if lp.LogY {
		logAxis(&p.Y)
	}
	if named && !lp.NoLegend {
		p.Legend.Top = !lp.LegendBottom
	} else {
		p.Legend = plot.NewLegend()
	}
	return nil
}

// logAxis makes a a log axis with a range that gonum/plot can draw: a
// positive range (1…10 without data), widened when it is a single value.
func logAxis(a *plot.Axis) {
	a.Scale = plot.LogScale{}
	a.Tick.Marker = LogTicks{}
	if !(a.Min > 0) || math.IsInf(a.Min, 0) || math.IsInf(a.Max, 0) || a.Max < a.Min {
		a.Min, a.Max = 1, 10
	}
	if a.Min == a.Max {
		a.Min, a.Max = a.Min/math.Sqrt(10), a.Max*math.Sqrt(10)
	}
}

// LogTicks is the tick marker of a log axis: gonum's plot.LogTicks (a
// labelled tick at each power of ten, unlabelled ones at its multiples 2–9)
// with each label the value rounded to 12 significant digits and printed
// with %g. gonum reaches the powers of ten by repeated multiplication and
// prints them in full, so on an axis from 1e-12 it labels the decade 0.1
// 0.09999999999999998 (examples/order); here it is 0.1.
type LogTicks struct{}

// Ticks returns the ticks of the log range [min, max]; min and max must be
// positive (plot.LogTicks panics otherwise).
func (LogTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = tickLabel(ts[i].Value)
		}
	}
	return ts
}

// tickLabel is v rounded to 12 significant digits, printed with %g
// (shortest form: 0.1, 1e-05, 1e+06).
func tickLabel(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil { // rounded past the largest float64: print v itself
		r = v
	}
	return strconv.FormatFloat(r, 'g', -1, 64)
}

// Tiled returns a tiled plot with rows × cols panels filled from panels in
// row-major order (panels beyond rows·cols are an error; missing panels
// stay empty). The panel axes are aligned.
func Tiled(rows, cols int, panels ...LinePlot) (*hplot.TiledPlot, error) {
	if rows < 1 || cols < 1 || len(panels) > rows*cols {
		return nil, fmt.Errorf("%w: %d panels in %d×%d tiles", ErrShape, len(panels), rows, cols)
	}
	tp := hplot.NewTiledPlot(draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter, PadY: vg.Millimeter})
	tp.Align = true
	for i := range panels {
		if err := panels[i].Draw(tp.Plots[i]); err != nil {
			return nil, err
		}
	}
	return tp, nil
}

// SavePlot writes the plot d (an *hplot.Plot, *hplot.TiledPlot or any
// hplot.Drawer) to base.png and base.svg and returns the two paths. A
// ".png" or ".svg" extension of base is removed first. w or h ≤ 0 mean
// DefaultWidth and DefaultHeight.
func SavePlot(d hplot.Drawer, w, h vg.Length, base string) ([]string, error) {
	if d == nil {
		return nil, errors.New("report: nil plot")
	}
	switch strings.ToLower(filepath.Ext(base)) {
	case ".png", ".svg":
		base = strings.TrimSuffix(base, filepath.Ext(base))
	}
	if w <= 0 {
		w = DefaultWidth
	}
	if h <= 0 {
		h = DefaultHeight
	}
	files := []string{base + ".png", base + ".svg"}
	if err := hplot.Save(d, w, h, files...); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	return files, nil
}
