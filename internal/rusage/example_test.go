package rusage_test

import (
	"fmt"

	"github.com/fesd-go/fesd/internal/rusage"
)

// Example times a piece of work in CPU time.
func Example() {
	c0 := rusage.CPUTime()
	s := 0.0
	for i := range 1000000 {
		s += float64(i)
	}
	used := rusage.CPUTime() - c0
	fmt.Println(s > 0, used >= 0, rusage.PeakRSS() >= 0)
	// Output: true true true
}
