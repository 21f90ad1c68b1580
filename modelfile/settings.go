package modelfile

import (
	"encoding"
	"math"
	"reflect"
	"strconv"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/fesd"
)

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// settable lists the fields of a settings struct that a file may set:
// integers (enums through their UnmarshalText), floats, booleans and
// nested settings structs. Pointers, interfaces and writers are not.
func settable(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int8, reflect.Float64, reflect.Bool, reflect.Struct:
			names = append(names, f.Name)
		}
	}
	return names
}

// readStruct sets the fields of v (a settings struct) from t; the keys are
// the Go field names, enum values their text forms (UnmarshalText).
func (b *builder) readStruct(t *table, v reflect.Value) error {
	if err := t.check(settable(v.Type())...); err != nil {
		return err
	}
	for _, key := range sortedKeys(t) {
		f := v.FieldByName(key)
		path := t.sub(key)
		val := t.m[key]
		switch {
		case f.Kind() == reflect.Struct:
			sub, err := t.subtable(key, "["+path+"]")
			if err != nil {
				return err
			}
			if err := b.readStruct(sub, f); err != nil {
				return err
			}
		case reflect.PointerTo(f.Type()).Implements(textUnmarshaler):
			s, ok := val.(string)
			if !ok {
				return b.d.valErr(path, "%s: want a name (a string), found %s", key, typeName(val))
			}
			if err := f.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)); err != nil {
				return b.d.valErr(path, "%v", err)
			}
		case f.Kind() == reflect.Bool:
			x, err := t.bool(key)
			if err != nil {
				return err
			}
			f.SetBool(x)
		case f.Kind() == reflect.Float64:
			x, _, err := t.float(key, true)
			if err != nil {
				return err
			}
			f.SetFloat(x)
		default:
			x, _, err := t.int(key, true)
			if err != nil {
				return err
			}
			f.SetInt(int64(x))
		}
	}
	return nil
}

func (b *builder) options(root *table) error {
	t, err := root.subtable("options", "[options]")
	if err != nil || t == nil {
		return err
	}
	if err := b.readStruct(t, reflect.ValueOf(&b.m.Options).Elem()); err != nil {
		return err
	}
	if err := b.m.Options.Validate(); err != nil {
		return b.d.keyErr("options", "%v", err)
	}
	return nil
}

var simKeys = []string{"TSim", "NSim", "T0", "U", "UTable", "NoPredict", "ColdStart"}

func (b *builder) simulate(root *table) error {
	t, err := root.subtable("simulate", "[simulate]")
	if err != nil || t == nil {
		return err
	}
	if err := t.check(simKeys...); err != nil {
		return err
	}
	s := &Simulation{}
	if s.TSim, _, err = t.float("TSim", true); err != nil {
		return err
	}
	if !(s.TSim > 0) {
		return b.d.valErr(t.sub("TSim"), "TSim must be positive, found %g", s.TSim)
	}
	if s.NSim, _, err = t.int("NSim", true); err != nil {
		return err
	}
	if s.NSim < 1 || s.NSim > 1e7 {
		return b.d.valErr(t.sub("NSim"), "NSim must be between 1 and 10000000, found %d", s.NSim)
	}
	if s.T0, _, err = t.float("T0", false); err != nil {
		return err
	}
	if s.NoPredict, err = t.bool("NoPredict"); err != nil {
		return err
	}
	if s.ColdStart, err = t.bool("ColdStart"); err != nil {
		return err
	}
	nu := len(b.u)
	if s.U, _, err = t.floats("U", nu, false); err != nil {
		return err
	}
	if t.has("UTable") {
		if t.has("U") {
			return b.d.keyErr(t.sub("UTable"), "give either U or UTable, not both")
		}
		rows, ok := t.m["UTable"].([]any)
		if !ok || len(rows) == 0 {
			return b.d.valErr(t.sub("UTable"), "UTable must be an array of rows [t, u…], found %s", typeName(t.m["UTable"]))
		}
		for i, r := range rows {
			p := t.sub("UTable") + "." + strconv.Itoa(i)
			v, err := b.d.floatList(p, r, 1+nu)
			if err != nil {
				return err
			}
			if i > 0 && !(v[0] > s.UTable[i-1].T) {
				return b.d.valErr(p, "the times of UTable must increase: row %d at %g after %g", i, v[0], s.UTable[i-1].T)
			}
			s.UTable = append(s.UTable, ControlStep{T: v[0], U: v[1:]})
		}
		if s.UTable[0].T > s.T0 {
			return b.d.valErr(t.sub("UTable.0"), "the first row of UTable starts at %g, after T0 = %g", s.UTable[0].T, s.T0)
		}
	}
	if nu > 0 && s.U == nil && s.UTable == nil {
		return b.d.keyErr("simulate", "the model has %d controls: give U (constant) or UTable (piecewise constant)", nu)
	}
	if nu == 0 && t.has("UTable") {
		return b.d.keyErr(t.sub("UTable"), "the model has no controls")
	}
	b.m.Sim = s
	return nil
}

var ocpKeys = []string{"N", "T", "T0", "NFE", "FreeTime", "TimeOptimal", "TMin", "TMax", "SpeedOfTime", "SOTMin", "SOTMax", "SOTRho", "XBoundsAt", "Lagrange", "Mayer", "Path", "Terminal", "StageEnd", "PathComps", "Start"}

func (b *builder) ocp(root *table) error {
	t, err := root.subtable("ocp", "[ocp]")
	if err != nil || t == nil {
		return err
	}
	if err := t.check(ocpKeys...); err != nil {
		return err
	}
	p := &fesd.OCP{Model: b.m.Model, X0: b.m.X0, XL: b.m.XL, XU: b.m.XU, UL: b.m.UL, UU: b.m.UU, P: b.m.P}
	if p.N, _, err = t.int("N", true); err != nil {
		return err
	}
	if p.N < 1 || p.N > 100000 {
		return b.d.valErr(t.sub("N"), "N must be between 1 and 100000, found %d", p.N)
	}
	if p.T, _, err = t.float("T", true); err != nil {
		return err
	}
	if !(p.T > 0) {
		return b.d.valErr(t.sub("T"), "T must be positive, found %g", p.T)
	}
	if p.T0, _, err = t.float("T0", false); err != nil {
		return err
	}
	if t.has("NFE") {
		v, err := b.d.floatList(t.sub("NFE"), t.m["NFE"], -1)
		if err != nil {
			return err
		}
		if len(v) != 1 && len(v) != p.N {
			return b.d.valErr(t.sub("NFE"), "NFE has %d values, want 1 or N = %d", len(v), p.N)
		}
		for _, f := range v {
			if f != math.Trunc(f) || f < 1 || f > 1000 {
				return b.d.valErr(t.sub("NFE"), "NFE must hold integers between 1 and 1000, found %g", f)
			}
			p.NFE = append(p.NFE, int(f))
		}
	}
	for _, f := range []struct {
		key string
		dst *bool
	}{{"FreeTime", &p.FreeTime}, {"TimeOptimal", &p.TimeOptimal}} {
		if *f.dst, err = t.bool(f.key); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key string
		dst *float64
	}{{"TMin", &p.TMin}, {"TMax", &p.TMax}, {"SOTMin", &p.SOTMin}, {"SOTMax", &p.SOTMax}, {"SOTRho", &p.SOTRho}} {
		if *f.dst, _, err = t.float(f.key, false); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key string
		dst any
	}{{"SpeedOfTime", &p.SpeedOfTime}, {"XBoundsAt", &p.XBoundsAt}} {
		if !t.has(f.key) {
			continue
		}
		s, _, err := t.str(f.key, true)
		if err != nil {
			return err
		}
		if err := f.dst.(interface{ UnmarshalText([]byte) error }).UnmarshalText([]byte(s)); err != nil {
			return b.d.valErr(t.sub(f.key), "%v", err)
		}
	}
	restore := b.restrict("cannot appear in the OCP's expressions", "step selection", "algebraic variable")
	defer restore()
	if v, ok, err := b.exprs(t, "Lagrange", 1, false, "Lagrange"); err != nil {
		return err
	} else if ok {
		p.Lagrange = v[0]
	}
	if v, ok, err := b.exprs(t, "Mayer", 1, false, "Mayer"); err != nil {
		return err
	} else if ok {
		p.Mayer = v[0]
	}
	if p.Path, err = b.constraints(t, "Path", true); err != nil {
		return err
	}
	if p.Terminal, err = b.constraints(t, "Terminal", false); err != nil {
		return err
	}
	if err := b.stageEnd(t, p); err != nil {
		return err
	}
	if p.PathComps, err = b.pathComps(t); err != nil {
		return err
	}
	o := &OCP{Problem: p}
	if err := b.start(t, o); err != nil {
		return err
	}
	b.m.OCP = o
	return nil
}

// constraints reads an array of constraint tables {G, L, U, At}.
func (b *builder) constraints(t *table, key string, at bool) ([]fesd.Constraint, error) {
	ts, err := t.tables(key, "[["+t.sub(key)+"]]")
	if err != nil {
		return nil, err
	}
	var out []fesd.Constraint
	for _, c := range ts {
		valid := []string{"G", "L", "U"}
		if at {
			valid = append(valid, "At")
		}
		if err := c.check(valid...); err != nil {
			return nil, err
		}
		g, _, err := b.exprs(c, "G", -1, true, "G")
		if err != nil {
			return nil, err
		}
		con := fesd.Constraint{G: g}
		l, okL, err := c.floats("L", len(g), false)
		if err != nil {
			return nil, err
		}
		u, okU, err := c.floats("U", len(g), false)
		if err != nil {
			return nil, err
		}
		switch {
		case okL && okU:
			con.L, con.U = l, u
		case okL:
			con.L, con.U = l, fill(len(g), math.Inf(1))
		case okU:
			con.L, con.U = fill(len(g), math.Inf(-1)), u
		}
		for i := range con.L {
			if con.L[i] > con.U[i] {
				return nil, b.d.valErr(c.sub("L"), "L[%d] = %g above U[%d] = %g", i, con.L[i], i, con.U[i])
			}
		}
		if c.has("At") {
			s, _, err := c.str("At", true)
			if err != nil {
				return nil, err
			}
			if err := con.At.UnmarshalText([]byte(s)); err != nil {
				return nil, b.d.valErr(c.sub("At"), "%v", err)
			}
		}
		out = append(out, con)
	}
	return out, nil
}

func fill(n int, v float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// start reads [ocp.Start]: UInit, XInit (rows) and SOTInit.
func (b *builder) start(t *table, o *OCP) error {
	st, err := t.subtable("Start", "[ocp.Start]")
	if err != nil || st == nil {
		return err
	}
	if err := st.check("UInit", "XInit", "XLinear", "SOTInit"); err != nil {
		return err
	}
	rows := func(key string, width int, rowsName string, rowsWanted int) ([][]float64, error) {
		v, ok := st.m[key]
		if !ok {
			return nil, nil
		}
		arr, ok := v.([]any)
		if !ok {
			return nil, b.d.valErr(st.sub(key), "%s must be an array of rows, found %s", key, typeName(v))
		}
		if len(arr) != 1 && len(arr) != rowsWanted {
			return nil, b.d.valErr(st.sub(key), "%s has %d rows, want 1 or %s = %d", key, len(arr), rowsName, rowsWanted)
		}
		var out [][]float64
		for i, r := range arr {
			x, err := b.d.floatList(st.sub(key)+"."+strconv.Itoa(i), r, width)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, nil
	}
	N := o.Problem.N
	if o.Start.UInit, err = rows("UInit", len(b.u), "N", N); err != nil {
		return err
	}
	if o.Start.XInit, err = rows("XInit", len(b.x), "N+1", N+1); err != nil {
		return err
	}
	if to, ok, err := st.floats("XLinear", len(b.x), false); err != nil {
		return err
	} else if ok {
		if o.Start.XInit != nil {
			return b.d.keyErr(st.sub("XLinear"), "give either XInit or XLinear, not both")
		}
		if (N+1)*len(to) > maxLen*100 {
			return b.d.keyErr(st.sub("XLinear"), "XLinear would make %d × %d start values, more than %d", N+1, len(to), maxLen*100)
		}
		// A straight line from x₀ to the given state at the N+1 stage
		// boundaries (as internal/cartpole.LinearGuess).
		for k := 0; k <= N; k++ {
			f := float64(k) / float64(N)
			row := make([]float64, len(to))
			for i := range row {
				row[i] = (1-f)*b.m.X0[i] + f*to[i]
			}
			o.Start.XInit = append(o.Start.XInit, row)
		}
	}
	if o.Start.SOTInit, _, err = st.float("SOTInit", false); err != nil {
		return err
	}
	return nil
}

// pathComps reads [[ocp.PathComps]]: {G, H, At}, 0 ≤ G ⊥ H ≥ 0.
func (b *builder) pathComps(t *table) ([]fesd.PathComp, error) {
	ts, err := t.tables("PathComps", "[[ocp.PathComps]]")
	if err != nil {
		return nil, err
	}
	var out []fesd.PathComp
	for _, c := range ts {
		if err := c.check("G", "H", "At"); err != nil {
			return nil, err
		}
		g, _, err := b.exprs(c, "G", -1, true, "G")
		if err != nil {
			return nil, err
		}
		h, _, err := b.exprs(c, "H", len(g), true, "H")
		if err != nil {
			return nil, err
		}
		pc := fesd.PathComp{G: g, H: h}
		if c.has("At") {
			s, _, err := c.str("At", true)
			if err != nil {
				return nil, err
			}
			if err := pc.At.UnmarshalText([]byte(s)); err != nil {
				return nil, b.d.valErr(c.sub("At"), "%v", err)
			}
		}
		out = append(out, pc)
	}
	return out, nil
}

// stageEnd reads StageEnd: constraints at the end of every stage k, in
// which the name "stage" is the constant k (0-based), built once per
// stage.
func (b *builder) stageEnd(t *table, p *fesd.OCP) error {
	if !t.has("StageEnd") {
		return nil
	}
	if _, taken := b.sc.names["stage"]; taken {
		return b.d.keyErr(t.sub("StageEnd"), "StageEnd defines the name \"stage\" (the stage index), which the file already uses")
	}
	defer delete(b.sc.names, "stage")
	per := make([][]fesd.Constraint, p.N)
	for k := range per {
		b.sc.names["stage"] = binding{v: ad.Vec{b.g.Const(float64(k))}, what: "stage index"}
		c, err := b.constraints(t, "StageEnd", false)
		if err != nil {
			return err
		}
		per[k] = c
		if k == 0 {
			rows := 0
			for _, con := range c {
				rows += len(con.G)
			}
			if rows == 0 {
				return nil
			}
			if rows*p.N > maxLen*100 {
				return b.d.keyErr(t.sub("StageEnd"), "StageEnd would make %d × %d constraint rows, more than %d", p.N, rows, maxLen*100)
			}
		}
	}
	p.StageEnd = func(k int) []fesd.Constraint {
		if k < 0 || k >= len(per) {
			return nil
		}
		return per[k]
	}
	return nil
}
