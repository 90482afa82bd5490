package jobspec

import (
	"fmt"
	"sort"

	"github.com/agext/levenshtein"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// decoder walks one parsed HCL file, collecting diagnostics and warnings.
// Every problem is recorded and decoding goes on, so one run reports all of
// them.
type decoder struct {
	filename string
	src      []byte
	diags    hcl.Diagnostics
	warns    []Warning
}

func (d *decoder) errorf(rng hcl.Range, summary, detail string) {
	r := rng
	d.diags = append(d.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &r,
	})
}

func (d *decoder) warnf(rng hcl.Range, format string, args ...any) {
	d.warns = append(d.warns, Warning{Range: rng, Message: fmt.Sprintf(format, args...)})
}

// text is the source text of a range (for "got ..." in messages).
func (d *decoder) text(rng hcl.Range) string {
	if rng.Start.Byte < 0 || rng.End.Byte > len(d.src) || rng.Start.Byte > rng.End.Byte {
		return ""
	}
	return string(d.src[rng.Start.Byte:rng.End.Byte])
}

// schema is what one kind of block may contain. Names in ignored* are
// documented Nomad constructs outside the subset: accepted whatever their
// content, reported as warnings. rejected maps block types this subset
// refuses to the reason it gives.
type schema struct {
	attrs         []string
	blocks        []string
	ignoredAttrs  []string
	ignoredBlocks []string
	rejected      map[string]string
}

// content is a body split by name, after every unknown name was reported.
type content struct {
	attrs  map[string]*hclsyntax.Attribute
	blocks map[string][]*hclsyntax.Block
	body   *hclsyntax.Body
}

// globallyRejected are refused wherever they appear.
var globallyRejected = map[string]string{"dynamic": "dynamic blocks are not supported, write each block out"}

// content checks every argument and block of body against s; where names
// the enclosing block in messages (`task "web"`).
func (d *decoder) content(body *hclsyntax.Body, s *schema, where string) content {
	c := content{
		attrs:  map[string]*hclsyntax.Attribute{},
		blocks: map[string][]*hclsyntax.Block{},
		body:   body,
	}
	for _, a := range sortedAttrs(body) {
		switch {
		case contains(s.attrs, a.Name):
			c.attrs[a.Name] = a
		case contains(s.ignoredAttrs, a.Name):
			d.warnf(a.NameRange, "argument %q in %s is ignored: allocsim does not model it", a.Name, where)
		case contains(s.blocks, a.Name) || contains(s.ignoredBlocks, a.Name):
			d.errorf(a.NameRange, "Unsupported argument",
				fmt.Sprintf("An argument named %[1]q is not expected in %[2]s. Did you mean to define a block of type %[1]q?", a.Name, where))
		default:
			d.errorf(a.NameRange, "Unsupported argument",
				fmt.Sprintf("An argument named %q is not expected in %s.", a.Name, where)+suggest(a.Name, s.attrs, s.ignoredAttrs))
		}
	}
	for _, b := range body.Blocks {
		reason, rejected := s.rejected[b.Type]
		if !rejected {
			reason, rejected = globallyRejected[b.Type]
		}
		switch {
		case rejected:
			d.errorf(b.TypeRange, "Unsupported block type", fmt.Sprintf("Blocks of type %q are not expected in %s: %s.", b.Type, where, reason))
		case contains(s.blocks, b.Type):
			c.blocks[b.Type] = append(c.blocks[b.Type], b)
		case contains(s.ignoredBlocks, b.Type):
			d.warnf(b.TypeRange, "block %q in %s is ignored: allocsim does not model it", b.Type, where)
		case contains(s.attrs, b.Type) || contains(s.ignoredAttrs, b.Type):
			d.errorf(b.TypeRange, "Unsupported block type",
				fmt.Sprintf("Blocks of type %[1]q are not expected in %[2]s. Did you mean to define argument %[1]q? "+
					"If so, use the equals sign to assign it a value.", b.Type, where))
		default:
			d.errorf(b.TypeRange, "Unsupported block type",
				fmt.Sprintf("Blocks of type %q are not expected in %s.", b.Type, where)+suggest(b.Type, s.blocks, s.ignoredBlocks))
		}
	}
	return c
}

// sortedAttrs lists a body's arguments in source order (the parser keeps
// them in a map).
func sortedAttrs(body *hclsyntax.Body) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(body.Attributes))
	for _, a := range body.Attributes {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte })
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns DetailDidYouMean for the closest known name within edit
// distance 2, or "".
func suggest(given string, lists ...[]string) string {
	best, bestDist := "", 3
	for _, list := range lists {
		for _, name := range list {
			if dist := levenshtein.Distance(given, name, nil); dist < bestDist {
				best, bestDist = name, dist
			}
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" Did you mean %q?", best)
}

// label returns the single label of a named block (job, group, task,
// volume); false after reporting a wrong label count.
func (d *decoder) label(b *hclsyntax.Block) (string, bool) {
	switch {
	case len(b.Labels) == 0:
		d.errorf(b.DefRange(), fmt.Sprintf("Missing name for %s", b.Type), fmt.Sprintf("A %s block must have exactly one label: its name.", b.Type))
		return "", false
	case len(b.Labels) > 1:
		d.errorf(b.LabelRanges[1], fmt.Sprintf("Extraneous label for %s", b.Type), fmt.Sprintf("A %s block must have exactly one label: its name.", b.Type))
		return "", false
	}
	return b.Labels[0], true
}

// noLabels reports labels on a block that takes none; it still decodes.
func (d *decoder) noLabels(b *hclsyntax.Block) {
	if len(b.Labels) > 0 {
		d.errorf(b.LabelRanges[0], fmt.Sprintf("Extraneous label for %s", b.Type), fmt.Sprintf("A %s block takes no labels.", b.Type))
	}
}

// single returns the first of a singleton block type (nil when absent),
// reporting every later one as a duplicate.
func (d *decoder) single(c content, blockType, where string) *hclsyntax.Block {
	blocks := c.blocks[blockType]
	if len(blocks) == 0 {
		return nil
	}
	for _, dup := range blocks[1:] {
		d.errorf(dup.DefRange(), fmt.Sprintf("Duplicate %s block", blockType),
			fmt.Sprintf("Only one %s block is allowed in %s; the first one is at %s.", blockType, where, blocks[0].DefRange().String()))
	}
	d.noLabels(blocks[0])
	return blocks[0]
}

// names tracks the names of one kind of named block inside one parent and
// reports duplicates.
type names struct {
	kind, where string
	seen        map[string]*hclsyntax.Block
}

func newNames(kind, where string) *names {
	return &names{kind: kind, where: where, seen: map[string]*hclsyntax.Block{}}
}

// add reports whether name is new; a duplicate is an error at b.
func (n *names) add(d *decoder, name string, b *hclsyntax.Block) bool {
	if first, ok := n.seen[name]; ok {
		d.errorf(b.DefRange(), fmt.Sprintf("Duplicate %s %q", n.kind, name),
			fmt.Sprintf("Names of %s blocks must be unique in %s; the first %q is at %s.", n.kind, n.where, name, first.DefRange().String()))
		return false
	}
	n.seen[name] = b
	return true
}
