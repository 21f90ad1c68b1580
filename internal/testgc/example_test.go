package testgc_test

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/fesd-go/fesd/internal/testgc"
)

// A test binary imports the package for its side effect; the collector's
// target is then Percent unless GOGC is set.
func Example() {
	old := debug.SetGCPercent(100) // read the current value (and restore it)
	debug.SetGCPercent(old)
	fmt.Println(old == testgc.Percent || os.Getenv("GOGC") != "")
	// Output: true
}
