package jobspec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
)

// genSpec is a generated job in the subset plus which fields are absent
// from the source (absent and explicit defaults must parse alike).
type genSpec struct {
	job         *structs.Job // before Canonicalize
	nameAbsent  bool
	countAbsent map[string]bool
}

var (
	identGen = rapid.StringMatching(`[a-z][a-z0-9_-]{0,6}`)
	// textGen: printable ASCII plus a few NFC-stable runes, quotes,
	// backslashes, "${" and "%{" sequences and control characters, all of
	// which the HCL printer escapes.
	textGen = rapid.OneOf(
		rapid.StringMatching(`[ -~]{0,12}`),
		rapid.SampledFrom([]string{"", "${NOMAD_TASK_DIR}", "%{x}", "a\"b\\c", "tab\there\nnl", "żółw ☃", "\x01"}),
	)
	durGen = rapid.Custom(func(t *rapid.T) time.Duration {
		return time.Duration(rapid.Int64Range(0, 48*3600*1000).Draw(t, "ms")) * time.Millisecond
	})
)

func optional[T any](t *rapid.T, label string, g *rapid.Generator[T]) *T {
	if !rapid.Bool().Draw(t, label+"?") {
		return nil
	}
	v := g.Draw(t, label)
	return &v
}

// configValueGen draws what encoding/json decodes: nil, string, float64,
// bool, []any, map[string]any.
func configValue(t *rapid.T, depth int) any {
	kinds := 4
	if depth < 2 {
		kinds = 6
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return textGen.Draw(t, "s")
	case 2:
		// Whole numbers, quarters, and extremes that still fit float64.
		return rapid.SampledFrom([]float64{0, -3, 6379, 0.25, -1.5e3, 1e21, math.MaxFloat64, 5e-324,
			float64(rapid.IntRange(-1<<40, 1<<40).Draw(t, "n")) / 4}).Draw(t, "f")
	case 3:
		return rapid.Bool().Draw(t, "b")
	case 4:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		out := make([]any, n)
		for i := range out {
			out[i] = configValue(t, depth+1)
		}
		return out
	default:
		out := map[string]any{}
		for range rapid.IntRange(0, 3).Draw(t, "len") {
			out[textGen.Draw(t, "k")] = configValue(t, depth+1)
		}
		return out
	}
}

func genJob(t *rapid.T) genSpec {
	spec := genSpec{countAbsent: map[string]bool{}}
	job := &structs.Job{ID: textGen.Draw(t, "id")}
	job.Name = job.ID
	if spec.nameAbsent = rapid.Bool().Draw(t, "nameAbsent"); !spec.nameAbsent {
		job.Name = textGen.Draw(t, "name")
	}
	job.Namespace = rapid.SampledFrom([]string{"", "default", "prod"}).Draw(t, "ns")
	job.Type = rapid.SampledFrom(append([]string{""}, jobTypes...)).Draw(t, "type")
	for _, gname := range rapid.SliceOfNDistinct(identGen, 1, 3, rapid.ID[string]).Draw(t, "groups") {
		tg := &structs.TaskGroup{Name: gname, Count: 1}
		if spec.countAbsent[gname] = rapid.Bool().Draw(t, "countAbsent"); !spec.countAbsent[gname] {
			tg.Count = rapid.IntRange(0, 5).Draw(t, "count")
		}
		if rapid.Bool().Draw(t, "restart") {
			tg.RestartPolicy = &structs.RestartPolicy{
				Attempts: optional(t, "attempts", rapid.IntRange(-1, 10)),
				Interval: optional(t, "interval", durGen),
				Delay:    optional(t, "delay", durGen),
				Mode:     optional(t, "mode", rapid.SampledFrom([]string{"fail", "delay", "odd"})),
			}
		}
		aliases := rapid.SliceOfNDistinct(identGen, 0, 2, rapid.ID[string]).Draw(t, "volumes")
		for _, alias := range aliases {
			if tg.Volumes == nil {
				tg.Volumes = map[string]*structs.VolumeRequest{}
			}
			tg.Volumes[alias] = &structs.VolumeRequest{Name: alias,
				Type:   rapid.SampledFrom(append([]string{""}, volumeTypes...)).Draw(t, "vtype"),
				Source: textGen.Draw(t, "source"), ReadOnly: rapid.Bool().Draw(t, "ro")}
		}
		for _, tname := range rapid.SliceOfNDistinct(identGen, 1, 3, rapid.ID[string]).Draw(t, "tasks") {
			tg.Tasks = append(tg.Tasks, genTask(t, tname, aliases))
		}
		job.TaskGroups = append(job.TaskGroups, tg)
	}
	spec.job = job
	return spec
}

func genTask(t *rapid.T, name string, aliases []string) *structs.Task {
	task := &structs.Task{Name: name, Driver: textGen.Draw(t, "driver"),
		Leader: rapid.Bool().Draw(t, "leader"), KillTimeout: durGen.Draw(t, "kill_timeout"),
		KillSignal: rapid.SampledFrom([]string{"", "SIGTERM", "SIGINT"}).Draw(t, "kill_signal")}
	if rapid.Bool().Draw(t, "config") {
		task.Config = map[string]any{}
		for _, k := range rapid.SliceOfNDistinct(identGen, 0, 4, rapid.ID[string]).Draw(t, "keys") {
			task.Config[k] = configValue(t, 0)
		}
	}
	if rapid.Bool().Draw(t, "lifecycle") {
		task.Lifecycle = &structs.TaskLifecycle{Hook: rapid.SampledFrom(lifecycleHooks).Draw(t, "hook"),
			Sidecar: rapid.Bool().Draw(t, "sidecar")}
	}
	if rapid.Bool().Draw(t, "schedule") {
		task.Schedule = &schedule.Schedule{}
		if rapid.Bool().Draw(t, "cron") {
			task.Schedule.Cron = &schedule.Cron{Start: textGen.Draw(t, "start"), End: textGen.Draw(t, "end"),
				Timezone: rapid.SampledFrom([]string{"", "UTC", "America/New_York"}).Draw(t, "tz")}
		}
	}
	if len(aliases) > 0 {
		for range rapid.IntRange(0, 2).Draw(t, "mounts") {
			task.VolumeMounts = append(task.VolumeMounts, &structs.VolumeMount{
				Volume: rapid.SampledFrom(aliases).Draw(t, "mount"), Destination: textGen.Draw(t, "dest"),
				ReadOnly: rapid.Bool().Draw(t, "mro")})
		}
	}
	return task
}

// hclString quotes s as an HCL string literal.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch {
		case r == '"' || r == '\\':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		case (r == '$' || r == '%') && next == '{':
			b.WriteString(string(r) + string(r))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hclValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return hclString(x)
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = hclValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = hclString(k) + " = " + hclValue(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	panic(fmt.Sprintf("hclValue: %T", v))
}

// renderHCL prints the spec as an HCL jobspec, omitting absent fields.
func renderHCL(spec genSpec) string {
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	job := spec.job
	p("job %s {", hclString(job.ID))
	if !spec.nameAbsent {
		p("name = %s", hclString(job.Name))
	}
	if job.Namespace != "" {
		p("namespace = %s", hclString(job.Namespace))
	}
	if job.Type != "" {
		p("type = %s", hclString(job.Type))
	}
	for _, tg := range job.TaskGroups {
		p("group %s {", hclString(tg.Name))
		if !spec.countAbsent[tg.Name] {
			p("count = %d", tg.Count)
		}
		if rp := tg.RestartPolicy; rp != nil {
			p("restart {")
			if rp.Attempts != nil {
				p("attempts = %d", *rp.Attempts)
			}
			if rp.Interval != nil {
				p("interval = %q", rp.Interval.String())
			}
			if rp.Delay != nil {
				p("delay = %q", rp.Delay.String())
			}
			if rp.Mode != nil {
				p("mode = %s", hclString(*rp.Mode))
			}
			p("}")
		}
		for alias, v := range tg.Volumes {
			p("volume %s {", hclString(alias))
			if v.Type != "" {
				p("type = %s", hclString(v.Type))
			}
			p("source = %s\nread_only = %t\n}", hclString(v.Source), v.ReadOnly)
		}
		for _, task := range tg.Tasks {
			renderTask(p, task)
		}
		p("}")
	}
	p("}")
	return b.String()
}

func renderTask(p func(string, ...any), task *structs.Task) {
	p("task %s {", hclString(task.Name))
	p("driver = %s\nleader = %t\nkill_timeout = %q", hclString(task.Driver), task.Leader, task.KillTimeout.String())
	if task.KillSignal != "" {
		p("kill_signal = %s", hclString(task.KillSignal))
	}
	if task.Config != nil {
		p("config {")
		keys := make([]string, 0, len(task.Config))
		for k := range task.Config {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p("%s = %s", k, hclValue(task.Config[k]))
		}
		p("}")
	}
	if l := task.Lifecycle; l != nil {
		p("lifecycle {\nhook = %q\nsidecar = %t\n}", l.Hook, l.Sidecar)
	}
	if s := task.Schedule; s != nil {
		p("schedule {")
		if c := s.Cron; c != nil {
			p("cron {\nstart = %s\nend = %s\ntimezone = %s\n}", hclString(c.Start), hclString(c.End), hclString(c.Timezone))
		}
		p("}")
	}
	for _, m := range task.VolumeMounts {
		p("volume_mount {\nvolume = %s\ndestination = %s\nread_only = %t\n}",
			hclString(m.Volume), hclString(m.Destination), m.ReadOnly)
	}
	p("}")
}

// The same job written as HCL and as the API's JSON parses to one domain
// job, which is the generated one canonicalized.
func TestPropertyHCLJSONEquivalence(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		spec := genJob(rt)
		src := renderHCL(spec)
		fromHCL, _, err := ParseHCL("gen.hcl", []byte(src))
		if err != nil {
			rt.Fatalf("ParseHCL: %v\n%s", err, src)
		}
		in := apiFromJob(spec.job, spec.nameAbsent, spec.countAbsent)
		for _, tg := range in.TaskGroups {
			for _, task := range tg.Tasks {
				if *task.KillTimeout == 0 {
					task.KillTimeout = nil // absent in JSON too
				}
			}
		}
		wrapped, bare := viaAPI(rt, in)
		want := spec.job
		want.Canonicalize()
		if diff := cmp.Diff(want, fromHCL); diff != "" {
			rt.Fatalf("HCL (-want +got):\n%s\n%s", diff, src)
		}
		if diff := cmp.Diff(want, wrapped); diff != "" {
			rt.Fatalf("JSON (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(want, bare); diff != "" {
			rt.Fatalf("bare JSON (-want +got):\n%s", diff)
		}
	})
}
