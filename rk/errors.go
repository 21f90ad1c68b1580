package rk

import "errors"

// Sentinel errors returned by the constructors and methods of this package.
// They are wrapped with details; test for them with errors.Is.
var (
	// ErrStages reports a number of stages outside the range supported by a family.
	ErrStages = errors.New("rk: number of stages out of range")
	// ErrFamily reports an unknown Family value.
	ErrFamily = errors.New("rk: unknown family")
	// ErrInvalid reports a tableau that fails Validate.
	ErrInvalid = errors.New("rk: invalid tableau")
	// ErrNoIntegral reports a tableau without an integral (collocation) representation.
	ErrNoIntegral = errors.New("rk: no integral representation")
	// ErrNodes reports that the Newton iteration for the collocation nodes failed.
	// It should never happen for the supported stage counts.
	ErrNodes = errors.New("rk: node computation failed")
)
