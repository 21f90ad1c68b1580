package dcs

// Unlifted returns o with the tailored lifting of the Step formulation
// switched off, for the tests that compare the lifted and the unlifted
// right-hand side.
func Unlifted(o TimeFreezingOptions) TimeFreezingOptions {
	o.noLift = true
	return o
}
