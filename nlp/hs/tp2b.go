package hs

// tpB lists problems of K. Schittkowski, More Test Examples for Nonlinear
// Programming Codes (1987), in order of their number.
var tpB = []func() *Problem{}
