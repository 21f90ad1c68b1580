package fesd

import (
	"fmt"
	"math"
)

func checkVec(name string, v []float64, n int) error {
	if len(v) != n {
		return fmt.Errorf("%w: %s has length %d, the model has %d", ErrDimension, name, len(v), n)
	}
	return checkFinite(name, v)
}

// checkFinite returns ErrNonFinite for the first NaN or Inf entry of v.
func checkFinite(name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%w: %s[%d] = %g", ErrNonFinite, name, i, x)
		}
	}
	return nil
}
