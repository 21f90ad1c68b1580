package convergence

import "math"

// Abscissa chooses the element length a slope is fitted over.
type Abscissa int

const (
	// Longest fits over the longest element h_max of each run (h̄ for a
	// point without h_max).
	Longest Abscissa = iota
	// Nominal fits over the nominal h̄ = T_sim/(N_sim·N_FE).
	Nominal
)

// Fit returns the least-squares slope of log(error) over log(h) on the
// points that succeeded, whose error is above floor and whose h is
// positive, and the number of those points; the slope is nil with fewer
// than two of them or when their h are all equal. The package
// documentation defines it.
func Fit[S Sample](pts []S, floor float64, over Abscissa) (*float64, int) {
	var xs, ys []float64
	for _, s := range pts {
		p := s.point()
		h := p.H
		if over == Longest && p.HMax > 0 {
			h = p.HMax
		}
		if p.Error == nil || !(*p.Error > floor) || !(h > 0) {
			continue
		}
		xs = append(xs, math.Log(h))
		ys = append(ys, math.Log(*p.Error))
	}
	if len(xs) < 2 {
		return nil, len(xs)
	}
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i] / n
		my += ys[i] / n
	}
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return nil, len(xs)
	}
	s := sxy / sxx
	return &s, len(xs)
}
