package nlp

// SkipStructZeroDual switches the skipping of structurally singular
// factorizations (kktSystem.emptyDualRows) on or off for the external
// tests, and returns a function that restores the setting.
func SkipStructZeroDual(on bool) (restore func()) {
	old := noStructZeroDual
	noStructZeroDual = !on
	return func() { noStructZeroDual = old }
}
