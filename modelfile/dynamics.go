package modelfile

import (
	"errors"
	"math"
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
	for _, t := range ts {
		if err := t.check("name", "psi", "signs", "regions", "modes", "g"); err != nil {
			return err
		}
		name, _, err := t.str("name", false)
		if err != nil {
			return err
		}
		psi, err := b.switchingFunctions(t)
		if err != nil {
			return err
		}
		mv, ok := t.m["modes"]
		if !ok {
			return t.missing("modes")
		}
		modes, ok := mv.([]any)
		if !ok {
			return b.d.valErr(t.sub("modes"), "modes must be an array with one entry per row of signs, found %s", typeName(mv))
		}
		if !t.has("signs") && !t.has("regions") && len(modes) != 1<<len(psi) {
			return b.d.valErr(t.sub("modes"), "%d modes for %d switching functions: every one of the %d sign patterns needs its dynamics", len(modes), len(psi), 1<<len(psi))
		}
		S, err := b.signMatrix(t, len(psi))
		if err != nil {
			return err
		}
		var regions []dcs.Region
		if t.has("regions") {
			if regions, err = b.regions(t, len(S), len(psi)); err != nil {
				return err
			}
			if len(modes) != len(regions) {
				return b.d.valErr(t.sub("modes"), "%d modes for %d regions: every region needs its dynamics", len(modes), len(regions))
			}
		} else if len(modes) != len(S) {
			return b.d.valErr(t.sub("modes"), "%d modes for %d rows of signs: every row needs its dynamics", len(modes), len(S))
		}
		restore := b.restrict("cannot appear in the modes of a subsystem (use [dynamics])", "step selection", "algebraic variable")
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
			G, _, err = b.exprs(t, "g", len(F), true, "g")
			restore()
			if err != nil {
				return err
			}
		}
		b.m.Model.AddSubsystem(dcs.Subsystem{Name: name, Psi: psi, S: S, Regions: regions, F: F, G: G})
		b.m.Subsystems = append(b.m.Subsystems, Subsystem{Name: name, Psi: exprStrings(t.m["psi"]), Signs: S, Modes: len(F)})
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

// regions reads the regions of a subsystem: expressions of the functions
// base(i) (row i of signs), positive(j), negative(j) (ψ_j > 0, < 0),
// union(…), intersection(…), complement(r) and difference(a, b)
// (dcs.Region, 0-based indices).
func (b *builder) regions(t *table, nbase, npsi int) ([]dcs.Region, error) {
	v := t.m["regions"]
	arr, ok := v.([]any)
	if !ok || len(arr) == 0 {
		return nil, b.d.valErr(t.sub("regions"), "regions must be an array of region expressions, found %s", typeName(v))
	}
	var out []dcs.Region
	for i, e := range arr {
		path := t.sub("regions") + "." + strconv.Itoa(i)
		s, ok := e.(string)
		if !ok {
			return nil, b.d.valErr(path, "want a region expression (a string), found %s", typeName(e))
		}
		n, perr := parseExpr(s)
		var r dcs.Region
		if perr == nil {
			r, perr = region(n, nbase, npsi)
		}
		if perr != nil {
			w := b.d.where[path]
			off := w.val
			if w.text >= 0 {
				off = w.text + perr.Off
			}
			return nil, b.d.errAt(off, "%s", perr.Msg)
		}
		out = append(out, r)
	}
	return out, nil
}

// region turns a syntax tree into a dcs.Region.
func region(n *node, nbase, npsi int) (dcs.Region, *exprError) {
	if n.kind != nodeCall {
		return dcs.Region{}, exprErrorf(n.off, "a region is base(i), positive(j), negative(j), union(…), intersection(…), complement(r) or difference(a, b)")
	}
	index := func(limit int, what string) (int, *exprError) {
		if len(n.args) != 1 || n.args[0].kind != nodeNum || n.args[0].num != math.Trunc(n.args[0].num) {
			return 0, exprErrorf(n.off, "%s takes one integer", n.name)
		}
		i := n.args[0].num
		if i < 0 || i >= float64(limit) {
			return 0, exprErrorf(n.args[0].off, "%s %g out of range: 0…%d (0-based)", what, i, limit-1)
		}
		return int(i), nil
	}
	var sub []dcs.Region
	switch n.name {
	case "union", "intersection", "complement", "difference":
		for _, a := range n.args {
			r, err := region(a, nbase, npsi)
			if err != nil {
				return dcs.Region{}, err
			}
			sub = append(sub, r)
		}
	}
	switch n.name {
	case "base":
		i, err := index(nbase, "base set")
		return dcs.BaseSet(i), err
	case "positive":
		j, err := index(npsi, "switching function")
		return dcs.Positive(j), err
	case "negative":
		j, err := index(npsi, "switching function")
		return dcs.Negative(j), err
	case "union", "intersection":
		if len(sub) == 0 {
			return dcs.Region{}, exprErrorf(n.off, "%s needs at least one region", n.name)
		}
		if n.name == "union" {
			return dcs.Union(sub...), nil
		}
		return dcs.Intersection(sub...), nil
	case "complement":
		if len(sub) != 1 {
			return dcs.Region{}, exprErrorf(n.off, "complement takes one region")
		}
		return dcs.Complement(sub[0]), nil
	case "difference":
		if len(sub) != 2 {
			return dcs.Region{}, exprErrorf(n.off, "difference takes two regions")
		}
		return dcs.Difference(sub[0], sub[1]), nil
	}
	return dcs.Region{}, exprErrorf(n.off, "unknown region function %q (base, positive, negative, union, intersection, complement, difference)", n.name)
}
