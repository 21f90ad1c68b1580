package main

import (
	"github.com/fesd-go/fesd/dcs"
	"github.com/fesd-go/fesd/internal/reference"
)

// irmaModel is the IRMA gene network of internal/reference (004 §7.1 as
// nosnoc_py's examples/Acary2014/irma.py writes it, with SWITCH_ON = 1 and
// LIFTING = True: the user lifting β = α₁(1 − α₄)); its initial state is
// reference.IRMAX0.
func irmaModel() *dcs.Model {
	m, _ := reference.IRMAModel(true)
	return m
}

// threeMasses is Stewart's three masses with Coulomb friction
// (Stewart 1996, §5, eq. 15) of internal/reference: x = (q, v), ψ_j = v_j,
// as three 2-mode subsystems (the paper's decomposition); its initial
// state is reference.FrictionX0.
func threeMasses() *dcs.Model {
	return reference.FrictionModel(reference.FrictionSplit)
}
