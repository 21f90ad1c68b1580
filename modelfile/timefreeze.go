package modelfile

import (
	"math"
	"reflect"
	"strconv"

	"github.com/fesd-go/fesd/ad"
	"github.com/fesd-go/fesd/dcs"
)

var timeFreezingKeys = []string{"q", "v", "clock", "clock_x0", "mass", "forces", "contact", "options"}

// modelOrTimeFreezing makes the dcs.Model: a plain one, or with a
// [time_freezing] table the time-freezing system of a rigid body
// (dcs.NewTimeFreezing), whose states are the file's q and v and the
// clock t.
func (b *builder) modelOrTimeFreezing(root *table) error {
	t, err := root.subtable("time_freezing", "[time_freezing]")
	if err != nil {
		return err
	}
	if t == nil {
		b.m.Model = dcs.NewModel(b.g, b.x, b.u, b.p)
		return nil
	}
	for _, k := range []string{"step", "subsystem", "dynamics", "algebraic", "time"} {
		if root.has(k) {
			return b.d.keyErr(k, "%q cannot be combined with [time_freezing], which builds the switching functions, modes and clock itself", k)
		}
	}
	if err := t.check(timeFreezingKeys...); err != nil {
		return err
	}
	rb := dcs.RigidBody{Graph: b.g, U: b.u, P: b.p}
	var qv [2]Var
	for i, key := range []string{"q", "v"} {
		name, _, err := t.str(key, true)
		if err != nil {
			return err
		}
		if len(b.m.States) != 2 || b.m.States[i].Name != name {
			return b.d.valErr(t.sub(key), "%s must name [[state]] %d: time freezing needs exactly two state blocks, the coordinates q and then the velocities v", key, i)
		}
		qv[i] = b.m.States[i]
	}
	if qv[0].Size != qv[1].Size {
		return b.d.valErr(t.sub("v"), "q has %d components and v %d: they must have the same size", qv[0].Size, qv[1].Size)
	}
	nq := qv[0].Size
	rb.Q, rb.V = b.x[:nq], b.x[nq:]
	if rb.M, err = b.massMatrix(t, nq); err != nil {
		return err
	}
	if rb.FV, _, err = b.exprs(t, "forces", nq, true, "forces"); err != nil {
		return err
	}
	if rb.Contacts, err = b.contacts(t, nq); err != nil {
		return err
	}
	var opt dcs.TimeFreezingOptions
	if ot, err := t.subtable("options", "[time_freezing.options]"); err != nil {
		return err
	} else if ot != nil {
		if ot.has("Formulation") {
			return b.d.keyErr(ot.sub("Formulation"), "the formulation is [options] DCS.Formulation")
		}
		if err := b.readStruct(ot, reflect.ValueOf(&opt).Elem()); err != nil {
			return err
		}
		if opt.SpeedOfTime != dcs.SpeedOfTimeNone {
			return b.d.valErr(ot.sub("SpeedOfTime"), "a speed-of-time control is not supported in model files; use [ocp] SpeedOfTime")
		}
	}
	opt.Formulation = b.m.Options.DCS.Formulation
	tf, err := dcs.NewTimeFreezing(rb, opt)
	if err != nil {
		return b.d.keyErr("time_freezing", "%v", err)
	}
	if want := tf.DCSOptions(); b.m.Options.DCS != want {
		return b.d.keyErr("time_freezing", "time freezing needs [options] DCS = %+v (the lifting is its own), found %+v", want, b.m.Options.DCS)
	}
	clock, _, err := t.str("clock", true)
	if err != nil {
		return err
	}
	if err := b.define(t.sub("clock"), clock, "state", ad.Vec{tf.ClockSym}); err != nil {
		return err
	}
	c0, _, err := t.float("clock_x0", true)
	if err != nil {
		return err
	}
	b.m.Model, b.x = tf.Model, tf.Model.X
	b.m.States = append(b.m.States, Var{Name: clock, Size: 1, Offset: 2 * nq})
	b.m.StateNames = append(b.m.StateNames, clock)
	b.m.X0 = append(b.m.X0, c0)
	if b.m.XL != nil {
		b.m.XL, b.m.XU = append(b.m.XL, math.Inf(-1)), append(b.m.XU, math.Inf(1))
	}
	psi := make([]string, len(tf.Psi))
	for i, e := range tf.Psi {
		psi[i] = e.String()
	}
	desc := Subsystem{Name: "time freezing", Psi: psi, Signs: tf.Signs, Modes: len(tf.Modes), Step: opt.Formulation == dcs.Step}
	if desc.Step {
		desc.Name = "time freezing α"
	}
	b.stepDesc = append(b.stepDesc, desc)
	b.timeFreezing, b.m.timeFreezing = true, true
	return nil
}

// massMatrix reads mass: n_q rows of n_q expressions.
func (b *builder) massMatrix(t *table, nq int) (ad.Mat, error) {
	v, ok := t.m["mass"]
	if !ok {
		return ad.Mat{}, t.missing("mass")
	}
	rows, ok := v.([]any)
	if !ok || len(rows) != nq {
		return ad.Mat{}, b.d.valErr(t.sub("mass"), "mass must be an array of %d rows of %d expressions", nq, nq)
	}
	var all ad.Vec
	rt := &table{d: b.d, path: t.sub("mass"), m: map[string]any{}, name: "mass"}
	for i, r := range rows {
		k := strconv.Itoa(i)
		rt.m[k] = r
		row, _, err := b.exprs(rt, k, nq, true, "row "+k+" of mass")
		if err != nil {
			return ad.Mat{}, err
		}
		all = append(all, row...)
	}
	m, err := ad.NewMat(nq, nq, all...)
	if err != nil {
		return ad.Mat{}, b.d.valErr(t.sub("mass"), "%v", err)
	}
	return m, nil
}

// contacts reads [[time_freezing.contact]]: gap, and for a frictional
// contact tangent_pos or tangent with mu; normal optionally.
func (b *builder) contacts(t *table, nq int) ([]dcs.Contact, error) {
	ts, err := t.tables("contact", "[[time_freezing.contact]]")
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, t.missing("contact")
	}
	var out []dcs.Contact
	for _, c := range ts {
		if err := c.check("name", "gap", "normal", "tangent", "tangent_pos", "mu"); err != nil {
			return nil, err
		}
		var k dcs.Contact
		if k.Name, _, err = c.str("name", false); err != nil {
			return nil, err
		}
		gap, _, err := b.exprs(c, "gap", 1, true, "gap")
		if err != nil {
			return nil, err
		}
		k.Gap = gap[0]
		if k.Normal, _, err = b.exprs(c, "normal", nq, false, "normal"); err != nil {
			return nil, err
		}
		if k.Tangent, _, err = b.exprs(c, "tangent", nq, false, "tangent"); err != nil {
			return nil, err
		}
		if tp, ok, err := b.exprs(c, "tangent_pos", 1, false, "tangent_pos"); err != nil {
			return nil, err
		} else if ok {
			k.TangentPos = tp[0]
		}
		frictional := c.has("tangent") || c.has("tangent_pos")
		mu, ok, err := c.float("mu", frictional)
		if err != nil {
			return nil, err
		}
		if ok && !frictional {
			return nil, b.d.keyErr(c.sub("mu"), "mu needs tangent or tangent_pos (a contact without them is frictionless)")
		}
		if mu < 0 {
			return nil, b.d.valErr(c.sub("mu"), "mu must be ≥ 0, found %g", mu)
		}
		k.Mu = mu
		out = append(out, k)
	}
	return out, nil
}
