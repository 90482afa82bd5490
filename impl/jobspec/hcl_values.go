package jobspec

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// value evaluates an argument without variables or functions. A template
// part that is a bare reference (`${NOMAD_TASK_DIR}`, `${node.unique.id}`)
// is kept verbatim for Nomad's runtime interpolation. ok is false after a
// reported error.
func (d *decoder) value(a *hclsyntax.Attribute) (cty.Value, bool) {
	v, diags := d.resolve(a.Expr).Value(nil)
	if diags.HasErrors() {
		d.diags = append(d.diags, diags...)
		return cty.NilVal, false
	}
	return v, true
}

// resolve rewrites the expression so that runtime references become string
// literals; everything else is left to HCL's evaluator. The parsed tree is
// not modified.
func (d *decoder) resolve(expr hclsyntax.Expression) hclsyntax.Expression {
	switch e := expr.(type) {
	case *hclsyntax.TemplateWrapExpr:
		if tr, ok := e.Wrapped.(*hclsyntax.ScopeTraversalExpr); ok {
			return d.runtimeRef(tr)
		}
	case *hclsyntax.TemplateExpr:
		parts := make([]hclsyntax.Expression, len(e.Parts))
		for i, p := range e.Parts {
			parts[i] = p
			if tr, ok := p.(*hclsyntax.ScopeTraversalExpr); ok {
				parts[i] = d.runtimeRef(tr)
			}
		}
		return &hclsyntax.TemplateExpr{Parts: parts, SrcRange: e.SrcRange}
	case *hclsyntax.TupleConsExpr:
		exprs := make([]hclsyntax.Expression, len(e.Exprs))
		for i, x := range e.Exprs {
			exprs[i] = d.resolve(x)
		}
		return &hclsyntax.TupleConsExpr{Exprs: exprs, SrcRange: e.SrcRange, OpenRange: e.OpenRange}
	case *hclsyntax.ObjectConsExpr:
		items := make([]hclsyntax.ObjectConsItem, len(e.Items))
		for i, it := range e.Items {
			items[i] = hclsyntax.ObjectConsItem{KeyExpr: it.KeyExpr, ValueExpr: d.resolve(it.ValueExpr)}
		}
		return &hclsyntax.ObjectConsExpr{Items: items, SrcRange: e.SrcRange, OpenRange: e.OpenRange}
	}
	return expr
}

func (d *decoder) runtimeRef(tr *hclsyntax.ScopeTraversalExpr) hclsyntax.Expression {
	return &hclsyntax.LiteralValueExpr{
		Val:      cty.StringVal("${" + d.text(tr.SrcRange) + "}"),
		SrcRange: tr.SrcRange,
	}
}

// convertTo evaluates a and converts it to want; present is false when the
// argument is absent or null, ok false after a reported error.
func (d *decoder) convertTo(c content, name string, want cty.Type) (v cty.Value, present, ok bool) {
	a := c.attrs[name]
	if a == nil {
		return cty.NilVal, false, true
	}
	raw, ok := d.value(a)
	if !ok {
		return cty.NilVal, true, false
	}
	if raw.IsNull() {
		return cty.NilVal, false, true
	}
	v, err := convert.Convert(raw, want)
	if err != nil {
		d.errorf(a.Expr.Range(), "Incorrect attribute value type", fmt.Sprintf("Inappropriate value for argument %q: %s.", name, err.Error()))
		return cty.NilVal, true, false
	}
	return v, true, true
}

// str reads a string argument; set reports whether it was given (non-null)
// and valid.
func (d *decoder) str(c content, name string) (s string, set bool) {
	v, present, ok := d.convertTo(c, name, cty.String)
	if !present || !ok {
		return "", false
	}
	return v.AsString(), true
}

// strList reads a list of strings.
func (d *decoder) strList(c content, name string) (list []string, set bool) {
	v, present, ok := d.convertTo(c, name, cty.List(cty.String))
	if !present || !ok {
		return nil, false
	}
	rng := c.attrs[name].Expr.Range()
	for _, e := range v.AsValueSlice() {
		if e.IsNull() {
			d.errorf(rng, "Invalid value", fmt.Sprintf("The list %q must not hold null.", name))
			return nil, false
		}
		list = append(list, e.AsString())
	}
	return list, true
}

// meta reads a meta block: any arguments, each value converted to a
// string (true → "true", 1.5 → "1.5"); nested blocks are errors.
func (d *decoder) meta(b *hclsyntax.Block, where string) map[string]string {
	out := map[string]string{}
	for _, nb := range b.Body.Blocks {
		d.errorf(nb.TypeRange, "Unsupported block type", fmt.Sprintf("Blocks of type %q are not expected in %s.", nb.Type, where))
	}
	c := content{attrs: map[string]*hclsyntax.Attribute{}, body: b.Body}
	for _, a := range sortedAttrs(b.Body) {
		c.attrs[a.Name] = a
		if s, set := d.str(c, a.Name); set {
			out[a.Name] = s
		}
	}
	return out
}

// boolean reads a bool argument.
func (d *decoder) boolean(c content, name string) (b, set bool) {
	v, present, ok := d.convertTo(c, name, cty.Bool)
	if !present || !ok {
		return false, false
	}
	return v.True(), true
}

// integer reads a whole-number argument that fits an int; negative values
// are refused when nonNegative.
func (d *decoder) integer(c content, name string, nonNegative bool) (n int, set bool) {
	v, present, ok := d.convertTo(c, name, cty.Number)
	if !present || !ok {
		return 0, false
	}
	rng := c.attrs[name].Expr.Range()
	got := d.text(rng)
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		d.errorf(rng, "Invalid value", fmt.Sprintf("The argument %q must be a whole number; got %s.", name, got))
		return 0, false
	}
	i, acc := bf.Int64()
	if acc != big.Exact || i > math.MaxInt || i < math.MinInt {
		d.errorf(rng, "Invalid value", fmt.Sprintf("The argument %q is out of range; got %s.", name, got))
		return 0, false
	}
	if nonNegative && i < 0 {
		d.errorf(rng, "Invalid value", fmt.Sprintf("The argument %q must not be negative; got %s.", name, got))
		return 0, false
	}
	return int(i), true
}

// duration reads a Go duration string ("15s", "1h30m"); negative
// durations are refused.
func (d *decoder) duration(c content, name string) (time.Duration, bool) {
	s, set := d.str(c, name)
	if !set {
		return 0, false
	}
	rng := c.attrs[name].Expr.Range()
	dur, err := time.ParseDuration(s)
	if err != nil {
		d.errorf(rng, "Invalid duration", fmt.Sprintf("The argument %q must be a duration such as \"30s\" or \"1h30m\"; %s.", name, err.Error()))
		return 0, false
	}
	if dur < 0 {
		d.errorf(rng, "Invalid value", fmt.Sprintf("The argument %q must not be negative; got %s.", name, d.text(rng)))
		return 0, false
	}
	return dur, true
}

// oneOf reads a string argument restricted to allowed values.
func (d *decoder) oneOf(c content, name string, allowed []string) (string, bool) {
	s, set := d.str(c, name)
	if !set {
		return "", false
	}
	if !contains(allowed, s) {
		d.errorf(c.attrs[name].Expr.Range(), "Invalid value",
			fmt.Sprintf("The argument %q must be one of %s; got %q.", name, quoteList(allowed), s))
		return "", false
	}
	return s, true
}

// require reports a missing (or null) required argument of block b.
func (d *decoder) require(c content, b *hclsyntax.Block, name, where string) {
	if a := c.attrs[name]; a != nil {
		if v, diags := d.resolve(a.Expr).Value(nil); diags.HasErrors() || !v.IsNull() {
			return
		}
	}
	d.errorf(b.DefRange(), "Missing required argument", fmt.Sprintf("The argument %q is required in %s.", name, where))
}

// quoteList renders `"a", "b" or "c"`.
func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// goValue converts a cty value into what encoding/json would decode from
// the same JSON: nil, string, float64, bool, []any, map[string]any. path
// locates the value inside config for messages.
func (d *decoder) goValue(v cty.Value, path, where string, rng hcl.Range) (any, bool) {
	v, _ = v.Unmark()
	switch {
	case v.IsNull():
		return nil, true
	case !v.IsKnown():
		d.errorf(rng, "Invalid value", fmt.Sprintf("The value at %s in %s cannot be represented: unknown value.", path, where))
		return nil, false
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString(), true
	case ty == cty.Bool:
		return v.True(), true
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		if math.IsInf(f, 0) {
			d.errorf(rng, "Invalid value", fmt.Sprintf("The number at %s in %s does not fit a 64-bit float.", path, where))
			return nil, false
		}
		return f, true
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		out := make([]any, 0, v.LengthInt())
		ok := true
		for i, it := 0, v.ElementIterator(); it.Next(); i++ {
			_, ev := it.Element()
			x, good := d.goValue(ev, fmt.Sprintf("%s[%d]", path, i), where, rng)
			ok = ok && good
			out = append(out, x)
		}
		return out, ok
	case ty.IsMapType() || ty.IsObjectType():
		out := make(map[string]any, v.LengthInt())
		ok := true
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			x, good := d.goValue(ev, path+"."+k.AsString(), where, rng)
			ok = ok && good
			out[k.AsString()] = x
		}
		return out, ok
	}
	d.errorf(rng, "Invalid value", fmt.Sprintf("The value at %s in %s cannot be represented: %s.", path, where, ty.FriendlyName()))
	return nil, false
}

// config turns a config block body into a map: arguments by name, nested
// blocks (which take no labels) as lists of maps under their type, the
// shape Nomad's JSON API uses for driver config blocks.
func (d *decoder) config(body *hclsyntax.Body, path, where string) (map[string]any, bool) {
	out := map[string]any{}
	ok := true
	for _, a := range sortedAttrs(body) {
		v, good := d.value(a)
		if !good {
			ok = false
			continue
		}
		x, good := d.goValue(v, path+"."+a.Name, where, a.Expr.Range())
		ok = ok && good
		out[a.Name] = x
	}
	for _, b := range body.Blocks {
		if len(b.Labels) > 0 {
			d.errorf(b.LabelRanges[0], "Unsupported block labels", fmt.Sprintf("Blocks inside config take no labels; %q has %d.", b.Type, len(b.Labels)))
			ok = false
			continue
		}
		if _, clash := body.Attributes[b.Type]; clash {
			d.errorf(b.TypeRange, "Duplicate config key", fmt.Sprintf("The key %q is set both as an argument and as a block in %s.", b.Type, where))
			ok = false
			continue
		}
		inner, good := d.config(b.Body, path+"."+b.Type, where)
		ok = ok && good
		list, _ := out[b.Type].([]any)
		out[b.Type] = append(list, inner)
	}
	return out, ok
}
