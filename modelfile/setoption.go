package modelfile

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// ErrOption reports an option that SetOption cannot set.
var ErrOption = errors.New("modelfile: invalid option")

// SetOption sets one field of the model's Options, as a command-line
// override of the file's [options]: key is a field name of fesd.Options
// or a dotted path into DCS or MPCC ("NFE", "DCS.Formulation",
// "MPCC.CompTol"), value its text (an enum's name as its UnmarshalText
// reads it, a number, true or false). The options are validated again. A
// time-freezing model was built for its DCS options, which cannot change.
func (m *Model) SetOption(key, value string) error {
	v := reflect.ValueOf(&m.Options).Elem()
	parts := strings.Split(key, ".")
	for i, p := range parts {
		names := settable(v.Type())
		if !contains(names, p) {
			sort.Strings(names)
			return fmt.Errorf("%w: unknown option %q (valid: %s)", ErrOption, strings.Join(parts[:i+1], "."), strings.Join(names, ", "))
		}
		v = v.FieldByName(p)
		if i < len(parts)-1 && v.Kind() != reflect.Struct {
			return fmt.Errorf("%w: %s is not a group of options", ErrOption, strings.Join(parts[:i+1], "."))
		}
	}
	if v.Kind() == reflect.Struct {
		return fmt.Errorf("%w: %s is a group of options: set one of its fields (%s.…)", ErrOption, key, key)
	}
	if m.timeFreezing && parts[0] == "DCS" {
		return fmt.Errorf("%w: the time-freezing model was built for DCS = %+v", ErrOption, m.Options.DCS)
	}
	old := m.Options
	if err := setText(v, value); err != nil {
		return fmt.Errorf("%w: %s: %v", ErrOption, key, err)
	}
	if err := m.Options.Validate(); err != nil {
		m.Options = old
		return fmt.Errorf("%w: %s = %s: %v", ErrOption, key, value, err)
	}
	return nil
}

// setText sets a settings field from its text.
func setText(f reflect.Value, s string) error {
	if u, ok := f.Addr().Interface().(encoding.TextUnmarshaler); ok {
		return u.UnmarshalText([]byte(s))
	}
	switch f.Kind() {
	case reflect.Bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("want true or false, found %q", s)
		}
		f.SetBool(b)
	case reflect.Float64:
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return fmt.Errorf("want a number, found %q", s)
		}
		f.SetFloat(x)
	default:
		i, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return fmt.Errorf("want an integer, found %q", s)
		}
		f.SetInt(i)
	}
	return nil
}
