package main

// The test binary runs with GOGC = 400 (see internal/testgc).
import _ "github.com/fesd-go/fesd/internal/testgc"
