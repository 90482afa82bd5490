package jobspec

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// Enumerations the parser checks (Nomad documents them; SPEC.md gives no
// message for them, so the parser is where a typo is caught).
var (
	jobTypes    = []string{structs.JobTypeService, structs.JobTypeBatch, structs.JobTypeSystem, structs.JobTypeSysBatch}
	volumeTypes = []string{"host", structs.VolumeTypeCSI}
)

// noVariables is why variable, variables and locals blocks are refused.
const noVariables = "variables and locals are not supported, write values literally"

var (
	topSchema = &schema{
		blocks:   []string{"job"},
		rejected: map[string]string{"variable": noVariables, "variables": noVariables, "locals": noVariables},
	}
	jobSchema = &schema{
		attrs:  []string{"name", "namespace", "type"},
		blocks: []string{"group", "meta", "parameterized"},
		ignoredAttrs: []string{"all_at_once", "consul_token", "datacenters", "node_pool",
			"priority", "region", "vault_token"},
		ignoredBlocks: []string{"affinity", "constraint", "consul", "migrate", "multiregion",
			"periodic", "reschedule", "spread", "ui", "update", "vault"},
	}
	groupSchema = &schema{
		attrs:  []string{"count"},
		blocks: []string{"restart", "task", "volume"},
		ignoredAttrs: []string{"max_client_disconnect", "prevent_reschedule_on_lost", "shutdown_delay",
			"stop_after_client_disconnect"},
		ignoredBlocks: []string{"affinity", "constraint", "consul", "disconnect", "ephemeral_disk", "meta",
			"migrate", "network", "reschedule", "scaling", "service", "spread", "update", "vault"},
	}
	restartSchema = &schema{
		attrs:        []string{"attempts", "delay", "interval", "mode"},
		ignoredAttrs: []string{"render_templates"},
	}
	volumeSchema = &schema{
		attrs:         []string{"read_only", "source", "type"},
		ignoredAttrs:  []string{"access_mode", "attachment_mode", "per_alloc", "sticky"},
		ignoredBlocks: []string{"mount_options"},
	}
	parameterizedSchema = &schema{attrs: []string{"meta_optional", "meta_required", "payload"}}
)

// ParseHCL reads an HCL jobspec: exactly one job block in the subset
// documented in the package comment. Unknown arguments and blocks are
// errors; documented Nomad constructs outside the subset are returned as
// warnings. Every problem is reported in one *Error, sorted by position.
// The job is canonicalized (structs.Job.Canonicalize).
func ParseHCL(filename string, src []byte) (*structs.Job, []Warning, error) {
	src = trimBOM(src)
	if !utf8.Valid(src) {
		return nil, nil, invalidUTF8(filename, src)
	}
	if diags := checkNesting(filename, src); diags.HasErrors() {
		return nil, nil, newError(filename, diags)
	}
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, nil, newError(filename, diags)
	}
	body := file.Body.(*hclsyntax.Body) // ParseConfig documents this type
	d := &decoder{filename: filename, src: src}
	job := d.file(body)
	if err := newError(filename, d.diags); err != nil {
		return nil, nil, err
	}
	job.Canonicalize()
	sort.SliceStable(d.warns, func(i, j int) bool { return d.warns[i].Range.Start.Byte < d.warns[j].Range.Start.Byte })
	return job, d.warns, nil
}

// invalidUTF8 reports the first byte that is not UTF-8. HCL would accept
// some in names and strings, and such a job could not be written as JSON.
func invalidUTF8(filename string, src []byte) error {
	off := 0
	for off < len(src) {
		r, size := utf8.DecodeRune(src[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	return &Error{Filename: filename, Diagnostics: hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Invalid character encoding",
		Detail: fmt.Sprintf("A jobspec must be UTF-8 encoded; byte %#x is not valid here.", src[off]), Subject: byteRange(filename, src, int64(off)),
	}}}
}

// HCL's parser recurses once per nesting level, so a file of a few hundred
// kilobytes of "[" or "- - - x" overflows the goroutine stack, a fatal
// error no recover catches. checkNesting bounds both before parsing, on
// the (iterative) lexer's tokens. Real jobspecs stay far below the limits.
const (
	// maxNesting bounds open blocks, brackets, parentheses, strings,
	// heredocs and template sequences.
	maxNesting = 100
	// maxChain bounds the unary, ternary and subtraction operators of one
	// list element, argument or attribute (each may nest the parse).
	maxChain = 100
)

var (
	openTokens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenOBrace: true, hclsyntax.TokenOBrack: true, hclsyntax.TokenOParen: true,
		hclsyntax.TokenOQuote: true, hclsyntax.TokenOHeredoc: true,
		hclsyntax.TokenTemplateInterp: true, hclsyntax.TokenTemplateControl: true,
	}
	closeTokens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenCBrace: true, hclsyntax.TokenCBrack: true, hclsyntax.TokenCParen: true,
		hclsyntax.TokenCQuote: true, hclsyntax.TokenCHeredoc: true, hclsyntax.TokenTemplateSeqEnd: true,
	}
	chainTokens = map[hclsyntax.TokenType]bool{
		hclsyntax.TokenMinus: true, hclsyntax.TokenBang: true, hclsyntax.TokenQuestion: true,
	}
)

// checkNesting reports the first token past either limit.
func checkNesting(filename string, src []byte) hcl.Diagnostics {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	chains := []int{0} // operators so far in the current element, per level
	fail := func(tok hclsyntax.Token, summary, detail string) hcl.Diagnostics {
		rng := tok.Range
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: detail, Subject: &rng}}
	}
	for _, tok := range tokens {
		top := len(chains) - 1
		switch {
		case openTokens[tok.Type]:
			if len(chains) > maxNesting {
				return fail(tok, "Nesting too deep", fmt.Sprintf("Blocks, brackets, strings and templates may nest at most %d levels deep.", maxNesting))
			}
			chains = append(chains, 0)
		case closeTokens[tok.Type]:
			if top > 0 {
				chains = chains[:top]
			}
		case tok.Type == hclsyntax.TokenComma || tok.Type == hclsyntax.TokenNewline:
			chains[top] = 0
		case chainTokens[tok.Type]:
			if chains[top]++; chains[top] > maxChain {
				return fail(tok, "Expression too long", fmt.Sprintf("One list element, argument or attribute may hold at most %d unary, conditional or subtraction operators.", maxChain))
			}
		}
	}
	return nil
}

func (d *decoder) file(body *hclsyntax.Body) *structs.Job {
	c := d.content(body, topSchema, "the file outside a job block")
	jobs := c.blocks["job"]
	if len(jobs) == 0 {
		start := hcl.InitialPos
		d.errorf(hcl.Range{Filename: d.filename, Start: start, End: start}, "Missing job block", "A jobspec must contain exactly one job block.")
		return nil
	}
	for _, dup := range jobs[1:] {
		d.errorf(dup.DefRange(), "Duplicate job block",
			fmt.Sprintf("A jobspec must contain exactly one job block; the first one is at %s.", jobs[0].DefRange().String()))
	}
	return d.job(jobs[0])
}

func (d *decoder) job(b *hclsyntax.Block) *structs.Job {
	id, _ := d.label(b)
	where := fmt.Sprintf("job %q", id)
	c := d.content(b.Body, jobSchema, where)
	job := &structs.Job{ID: id, Name: id}
	if name, set := d.str(c, "name"); set {
		job.Name = name
	}
	job.Namespace, _ = d.str(c, "namespace")
	job.Type, _ = d.oneOf(c, "type", jobTypes)
	if mb := d.single(c, "meta", where); mb != nil {
		job.Meta = d.meta(mb, "the meta block of "+where)
	}
	if pb := d.single(c, "parameterized", where); pb != nil {
		job.ParameterizedJob = d.parameterized(pb, "the parameterized block of "+where)
	}
	seen := newNames("group", where)
	for _, gb := range c.blocks["group"] {
		tg := d.group(gb)
		if tg != nil && seen.add(d, tg.Name, gb) {
			job.TaskGroups = append(job.TaskGroups, tg)
		}
	}
	return job
}

// payloadRequirements are the parameterized block's payload values.
var payloadRequirements = []string{structs.DispatchPayloadOptional, structs.DispatchPayloadRequired, structs.DispatchPayloadForbidden}

// parameterized reads a job's parameterized block; an absent payload is
// left to Canonicalize (optional). Registration checks the job type.
func (d *decoder) parameterized(b *hclsyntax.Block, where string) *structs.ParameterizedJobConfig {
	c := d.content(b.Body, parameterizedSchema, where)
	p := &structs.ParameterizedJobConfig{}
	p.Payload, _ = d.oneOf(c, "payload", payloadRequirements)
	p.MetaRequired, _ = d.strList(c, "meta_required")
	p.MetaOptional, _ = d.strList(c, "meta_optional")
	return p
}

func (d *decoder) group(b *hclsyntax.Block) *structs.TaskGroup {
	name, ok := d.label(b)
	where := fmt.Sprintf("group %q", name)
	c := d.content(b.Body, groupSchema, where)
	if !ok {
		return nil
	}
	tg := &structs.TaskGroup{Name: name, Count: 1}
	if n, set := d.integer(c, "count", true); set {
		tg.Count = n
	}
	if rb := d.single(c, "restart", where); rb != nil {
		tg.RestartPolicy = d.restart(rb, where)
	}
	vols := newNames("volume", where)
	for _, vb := range c.blocks["volume"] {
		v := d.volume(vb)
		if v != nil && vols.add(d, v.Name, vb) {
			if tg.Volumes == nil {
				tg.Volumes = map[string]*structs.VolumeRequest{}
			}
			tg.Volumes[v.Name] = v
		}
	}
	tasks := newNames("task", where)
	for _, tb := range c.blocks["task"] {
		t := d.task(tb, tg, where)
		if t != nil && tasks.add(d, t.Name, tb) {
			tg.Tasks = append(tg.Tasks, t)
		}
	}
	return tg
}

// restart reads a group restart block; absent fields stay nil so that
// Canonicalize fills the job type's defaults (DATA-3). Values are checked
// at registration (RestartPolicy.Validate), not here.
func (d *decoder) restart(b *hclsyntax.Block, group string) *structs.RestartPolicy {
	c := d.content(b.Body, restartSchema, "the restart block of "+group)
	p := &structs.RestartPolicy{}
	if n, set := d.integer(c, "attempts", false); set {
		p.Attempts = &n
	}
	if v, set := d.duration(c, "interval"); set {
		p.Interval = &v
	}
	if v, set := d.duration(c, "delay"); set {
		p.Delay = &v
	}
	if m, set := d.str(c, "mode"); set {
		p.Mode = &m
	}
	return p
}

func (d *decoder) volume(b *hclsyntax.Block) *structs.VolumeRequest {
	alias, ok := d.label(b)
	where := fmt.Sprintf("volume %q", alias)
	c := d.content(b.Body, volumeSchema, where)
	if !ok {
		return nil
	}
	v := &structs.VolumeRequest{Name: alias}
	v.Type, _ = d.oneOf(c, "type", volumeTypes)
	d.require(c, b, "source", where)
	v.Source, _ = d.str(c, "source")
	v.ReadOnly, _ = d.boolean(c, "read_only")
	return v
}

var lifecycleHooks = []string{
	structs.TaskLifecycleHookPrestart, structs.TaskLifecycleHookPoststart, structs.TaskLifecycleHookPoststop,
}

var (
	taskSchema = &schema{
		attrs:        []string{"driver", "kill_signal", "kill_timeout", "leader"},
		blocks:       []string{"config", "lifecycle", "schedule", "volume_mount"},
		ignoredAttrs: []string{"kind", "shutdown_delay", "user"},
		ignoredBlocks: []string{"action", "affinity", "artifact", "constraint", "consul", "csi_plugin",
			"dispatch_payload", "env", "identity", "logs", "meta", "resources", "scaling", "secret",
			"service", "template", "vault"},
		rejected: map[string]string{"restart": "a task-level restart policy is not modelled, set restart on the group"},
	}
	lifecycleSchema   = &schema{attrs: []string{"hook", "sidecar"}}
	scheduleSchema    = &schema{blocks: []string{"cron"}}
	cronSchema        = &schema{attrs: []string{"end", "start", "timezone"}}
	volumeMountSchema = &schema{
		attrs:        []string{"destination", "read_only", "volume"},
		ignoredAttrs: []string{"propagation_mode", "selinux_label"},
	}
)

// task reads a task of group tg (whose volumes are already read, for the
// volume_mount check); group names the group in messages.
func (d *decoder) task(b *hclsyntax.Block, tg *structs.TaskGroup, group string) *structs.Task {
	name, ok := d.label(b)
	where := fmt.Sprintf("task %q", name)
	c := d.content(b.Body, taskSchema, where)
	if !ok {
		return nil
	}
	t := &structs.Task{Name: name}
	d.require(c, b, "driver", where)
	t.Driver, _ = d.str(c, "driver")
	t.Leader, _ = d.boolean(c, "leader")
	t.KillTimeout, _ = d.duration(c, "kill_timeout")
	t.KillSignal, _ = d.str(c, "kill_signal")
	if cb := d.single(c, "config", where); cb != nil {
		t.Config, _ = d.config(cb.Body, "config", where)
	}
	if lb := d.single(c, "lifecycle", where); lb != nil {
		t.Lifecycle = d.lifecycle(lb, where)
	}
	if sb := d.single(c, "schedule", where); sb != nil {
		t.Schedule = d.schedule(sb, where)
	}
	for _, mb := range c.blocks["volume_mount"] {
		d.noLabels(mb)
		t.VolumeMounts = append(t.VolumeMounts, d.volumeMount(mb, tg, where, group))
	}
	return t
}

func (d *decoder) lifecycle(b *hclsyntax.Block, task string) *structs.TaskLifecycle {
	where := "the lifecycle block of " + task
	c := d.content(b.Body, lifecycleSchema, where)
	d.require(c, b, "hook", where)
	l := &structs.TaskLifecycle{}
	l.Hook, _ = d.oneOf(c, "hook", lifecycleHooks)
	l.Sidecar, _ = d.boolean(c, "sidecar")
	return l
}

// schedule reads a task schedule. Its content is validated at registration
// (SCHED-1, SCHED-2), so a schedule without cron, or a cron with empty or
// malformed start/end, decodes as written.
func (d *decoder) schedule(b *hclsyntax.Block, task string) *schedule.Schedule {
	where := "the schedule block of " + task
	c := d.content(b.Body, scheduleSchema, where)
	s := &schedule.Schedule{}
	cb := d.single(c, "cron", where)
	if cb == nil {
		return s
	}
	cc := d.content(cb.Body, cronSchema, "the cron block of "+task)
	s.Cron = &schedule.Cron{}
	s.Cron.Start, _ = d.str(cc, "start")
	s.Cron.End, _ = d.str(cc, "end")
	s.Cron.Timezone, _ = d.str(cc, "timezone")
	return s
}

// volumeMount reads a volume_mount; its volume must be one of the group's
// aliases.
func (d *decoder) volumeMount(b *hclsyntax.Block, tg *structs.TaskGroup, task, group string) *structs.VolumeMount {
	where := "a volume_mount block of " + task
	c := d.content(b.Body, volumeMountSchema, where)
	m := &structs.VolumeMount{}
	d.require(c, b, "volume", where)
	vol, set := d.str(c, "volume")
	m.Volume = vol
	if set {
		if _, declared := tg.Volumes[vol]; !declared {
			aliases := make([]string, 0, len(tg.Volumes))
			for alias := range tg.Volumes {
				aliases = append(aliases, alias)
			}
			sort.Strings(aliases)
			d.errorf(c.attrs["volume"].Expr.Range(), "Reference to undeclared volume",
				fmt.Sprintf("The volume_mount in %s refers to volume %q, but %s declares no such volume.", task, vol, group)+suggest(vol, aliases))
		}
	}
	m.Destination, _ = d.str(c, "destination")
	m.ReadOnly, _ = d.boolean(c, "read_only")
	return m
}
