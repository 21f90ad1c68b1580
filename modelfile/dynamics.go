package modelfile

import (
	"errors"
	"strconv"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

func (b *builder) algebraicVars(root *table) error {
	ts, vars, _, err := b.vars(root, "algebraic", "algebraic variable", "equations")
	if err != nil {
		return err
	}
	b.algTables, b.m.Algebraic = ts, vars
	return nil
}

// lets reads [let]: named expressions, in file order, each of which may
// use the variables and the earlier ones.
func (b *builder) lets(root *table) error {
	t, err := root.subtable("let", "[let]")
	if err != nil || t == nil {
		return err
	}
	for _, k := range sortedKeys(t) {
		v, err := b.expr(t.sub(k), t.m[k])
		if err != nil {
			return err
		}
		if err := b.defineAtKey(t.sub(k), k, "definition", v); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) algebraicEqs(*table) error {
	for i, t := range b.algTables {
		v := b.m.Algebraic[i]
		z := b.sc.names[v.Name].v
		eq, _, err := b.exprs(t, "equations", v.Size, true, "equations of "+v.Name)
		if err != nil {
			return err
		}
		b.m.Model.AddAlgebraic(z, eq)
	}
	return nil
}

// signMatrix reads the sign matrix of a subsystem with nψ columns.
func (b *builder) signMatrix(t *table, npsi int) ([][]int, error) {
	v, ok := t.m["signs"]
	if !ok {
		return dcs.DefaultSigns(npsi), nil
	}
	path := t.sub("signs")
	rows, ok := v.([]any)
	if !ok || len(rows) == 0 {
		return nil, b.d.valErr(path, "signs must be an array of rows of ±1, found %s", typeName(v))
	}
	var S [][]int
	seen := map[string]int{}
	for i, r := range rows {
		rp := path + "." + strconv.Itoa(i)
		row, ok := r.([]any)
		if !ok {
			return nil, b.d.valErr(rp, "row %d of signs must be an array of ±1, found %s", i, typeName(r))
		}
		if len(row) != npsi {
			return nil, b.d.valErr(rp, "row %d of signs has %d entries, want %d (one per switching function)", i, len(row), npsi)
		}
		var s []int
		for j, e := range row {
			k, ok := e.(int64)
			if !ok || k != 1 && k != -1 {
				return nil, b.d.valErr(rp+"."+strconv.Itoa(j), "sign matrix entries must be 1 or -1, found %v", e)
			}
			s = append(s, int(k))
		}
		key := ""
		for _, k := range s {
			key += strconv.Itoa(k)
		}
		if j, dup := seen[key]; dup {
			return nil, b.d.valErr(rp, "row %d of signs repeats row %d", i, j)
		}
		seen[key] = i
		S = append(S, s)
	}
	if len(S) != 1<<npsi {
		return nil, b.d.valErr(path, "signs has %d rows, want %d (every sign pattern of %d switching functions once)", len(S), 1<<npsi, npsi)
	}
	return S, nil
}

func (b *builder) subsystems(root *table) error {
	ts, err := root.tables("subsystem", "[[subsystem]]")
	if err != nil {
		return err
	}
	nx := len(b.x)
	for si, t := range ts {
		if err := t.check("name", "psi", "signs", "modes", "g"); err != nil {
			return err
		}
		name, _, err := t.str("name", false)
		if err != nil {
			return err
		}
		restore := b.restrict("cannot appear in switching functions", "time", "step selection", "algebraic variable")
		psi, _, err := b.exprs(t, "psi", -1, true, "psi")
		restore()
		if err != nil {
			return err
		}
		if len(psi) > dcs.MaxPsi {
			return b.d.valErr(t.sub("psi"), "%d switching functions, at most %d", len(psi), dcs.MaxPsi)
		}
		mv, ok := t.m["modes"]
		if !ok {
			return t.missing("modes")
		}
		modes, ok := mv.([]any)
		if !ok {
			return b.d.valErr(t.sub("modes"), "modes must be an array with one entry per row of signs, found %s", typeName(mv))
		}
		if !t.has("signs") && len(modes) != 1<<len(psi) {
			return b.d.valErr(t.sub("modes"), "%d modes for %d switching functions: every one of the %d sign patterns needs its dynamics", len(modes), len(psi), 1<<len(psi))
		}
		S, err := b.signMatrix(t, len(psi))
		if err != nil {
			return err
		}
		if len(modes) != len(S) {
			return b.d.valErr(t.sub("modes"), "%d modes for %d rows of signs: every row needs its dynamics", len(modes), len(S))
		}
		restore = b.restrict("cannot appear in the modes of a subsystem (use [dynamics])", "step selection", "algebraic variable")
		var F []ad.Vec
		mt := &table{d: b.d, path: t.sub("modes"), m: map[string]any{}, name: "modes"}
		for i, e := range modes {
			mt.m[strconv.Itoa(i)] = e
			f, _, err := b.exprs(mt, strconv.Itoa(i), nx, true, "mode "+strconv.Itoa(i))
			if err != nil {
				restore()
				return err
			}
			F = append(F, f)
		}
		restore()
		var G ad.Vec
		if t.has("g") {
			restore = b.restrict("cannot appear in indicator functions", "time", "step selection", "algebraic variable")
			G, _, err = b.exprs(t, "g", len(S), true, "g")
			restore()
			if err != nil {
				return err
			}
		}
		b.m.Model.AddSubsystem(dcs.Subsystem{Name: name, Psi: psi, S: S, F: F, G: G})
		b.m.Subsystems = append(b.m.Subsystems, Subsystem{Name: name, Psi: exprStrings(t.m["psi"]), Signs: S, Modes: len(F)})
		_ = si
	}
	b.m.Subsystems = append(b.m.Subsystems, b.stepDesc...)
	return nil
}

func (b *builder) dynamics(root *table) error {
	t, err := root.subtable("dynamics", "[dynamics]")
	if err != nil {
		return err
	}
	if t == nil {
		if b.timeFreezing {
			return nil
		}
		if len(b.m.Model.Subsystems) == 0 {
			return root.missing("dynamics")
		}
		if len(b.m.Model.Steps) > 0 {
			return b.d.errAt(0, "the step selections of [[step]] are used only in [dynamics], which is missing")
		}
		return nil
	}
	if err := t.check("f"); err != nil {
		return err
	}
	f, _, err := b.exprs(t, "f", len(b.x), true, "f")
	if err != nil {
		return err
	}
	b.m.Model.F0 = f
	b.dynPath = t.sub("f")
	return nil
}

// model validates the assembled model; the checks above leave little for
// dcs.Model.Validate to find, and what it finds is reported at the part of
// the file it names.
func (b *builder) model(*table) error {
	err := b.m.Model.Validate()
	if err == nil {
		return nil
	}
	var e *dcs.Error
	path := b.dynPath
	if errors.As(err, &e) && e.Subsystem >= 0 {
		path = "subsystem." + strconv.Itoa(e.Subsystem)
	}
	return b.d.keyErr(path, "invalid model: %v", err)
}
