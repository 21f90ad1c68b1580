package enumtext_test

import (
	"fmt"

	"github.com/fesd-go/fesd/internal/enumtext"
)

type color int

func (c color) String() string { return [...]string{"red", "green"}[c] }

// Parse matches a name without regard to case and lists the valid names
// when it fails.
func ExampleParse() {
	values := enumtext.Values[color](2)
	c, err := enumtext.Parse("pkg", "color", values, []byte("GREEN"))
	fmt.Println(int(c), err)
	_, err = enumtext.Parse("pkg", "color", values, []byte("blue"))
	fmt.Println(err)
	// Output:
	// 1 <nil>
	// pkg: unknown color "blue" (want one of red, green)
}
