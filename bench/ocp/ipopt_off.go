//go:build !ipopt

package main

import (
	"github.com/fesd-go/fesd/mpcc"
	"github.com/fesd-go/fesd/nlp"
)

// ipoptSolver is nil without the ipopt build tag: only the native rows run.
func ipoptSolver(nlp.Settings) mpcc.InnerSolver { return nil }

func ipoptVersion() string { return "" }
