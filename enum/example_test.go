package enum_test

import (
	"errors"
	"fmt"

	"github.com/fesd-go/fesd/enum"
	"github.com/fesd-go/fesd/nlp"
)

func ExampleErrUnknownName() {
	var s nlp.MuStrategy
	err := s.UnmarshalText([]byte("adaptiv"))
	fmt.Println(errors.Is(err, enum.ErrUnknownName))
	fmt.Println(err)
	// Output:
	// true
	// nlp: unknown MuStrategy "adaptiv" (want one of Monotone, Adaptive)
}
