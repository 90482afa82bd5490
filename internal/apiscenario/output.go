package apiscenario

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/hashicorp/nomad/api"
)

// Result is a call's output: ok, or its error (Failure).
func Result(err error) string {
	if err != nil {
		return Failure(err)
	}
	return "ok"
}

// Failure prints an API error as its status and body (API-1), any other
// error as is.
func Failure(err error) string {
	var ue api.UnexpectedResponseError
	if errors.As(err, &ue) {
		return fmt.Sprintf("%d %s", ue.StatusCode(), Body(ue.Body()))
	}
	return "error: " + err.Error()
}

// Body is a response body as it prints: quoted if it has a newline or tab.
func Body(s string) string {
	if strings.ContainsAny(s, "\n\t") {
		return strconv.Quote(s)
	}
	return s
}

// StubLines prints alloc stubs, one a line, "<ID> <name> <fields>" with
// fields printing the rest of a stub; [] for none, null for nil.
func StubLines(stubs []*api.AllocationListStub, fields func(*api.AllocationListStub) string) string {
	if stubs == nil {
		return "null"
	}
	if len(stubs) == 0 {
		return "[]"
	}
	var out []string
	for _, s := range stubs {
		out = append(out, s.ID+" "+s.Name+" "+fields(s))
	}
	return strings.Join(out, "\n")
}

// PauseState prints a task's pause state as get-pause reads it (API-3):
// as is, the empty state as "".
func PauseState(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// uuidPattern matches an ID in output: a UUID (the format must.UUIDv4
// checks), lower case as the servers draw them.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// nilUUID is the ID of no alloc; written in a file, it prints as is.
const nilUUID = "00000000-0000-0000-0000-000000000000"

// IsUUID reports whether s is one well-formed UUID.
func IsUUID(s string) bool {
	return len(s) == 36 && uuidPattern.MatchString(strings.ToLower(s))
}

// UUIDs lists the UUIDs s names, in order.
func UUIDs(s string) []string { return uuidPattern.FindAllString(s, -1) }

// Server is what labels read of the simulated server behind an agent
// (sim/server.Server): its allocs.
type Server interface {
	Allocs() []*structs.Allocation
	AllocByName(name string) *structs.Allocation
}

// Labels prints IDs as labels (the package's first output convention)
// and reads them back. The zero value has no label yet.
type Labels struct {
	label map[string]string // ID -> label
	ids   map[string]string // label -> ID
	n     int               // UUIDs labelled <idN>
}

// set labels id, unless it has a label already; a label taken already
// gets a number (<web.g[0]#2>).
func (l *Labels) set(id, label string) {
	if l.label == nil {
		l.label, l.ids = map[string]string{}, map[string]string{}
	}
	if _, ok := l.label[id]; ok {
		return
	}
	for n := 2; l.ids[label] != ""; n++ {
		label = fmt.Sprintf("%s#%d>", strings.TrimSuffix(label, ">"), n)
	}
	l.label[id], l.ids[label] = label, id
}

// ID is the ID of label.
func (l *Labels) ID(label string) (string, bool) {
	id, ok := l.ids[label]
	return id, ok
}

// AllocID resolves an alloc argument: an alloc's name on srv, a label
// (<...>) or an ID.
func (l *Labels) AllocID(ref string, srv Server) string {
	if a := srv.AllocByName(ref); a != nil {
		return a.ID
	}
	if id, ok := l.ID(ref); ok {
		return id
	}
	return ref
}

// Redact replaces in s the node's ID (nodeID), every alloc ID of srv and
// every other UUID but the nil UUID by its label.
func (l *Labels) Redact(s, nodeID string, srv Server) string {
	l.set(nodeID, "<node>")
	for _, a := range srv.Allocs() {
		l.set(a.ID, "<"+a.Name+">")
	}
	return uuidPattern.ReplaceAllStringFunc(s, func(id string) string {
		if label, ok := l.label[id]; ok {
			return label
		}
		if id == nilUUID {
			return id
		}
		l.n++
		l.set(id, fmt.Sprintf("<id%d>", l.n))
		return l.label[id]
	})
}

// EventLog prints task events, each once: it remembers, per alloc and
// task, the last event printed, so that an events directive prints only
// what came after it. The zero value prints events without their time;
// it is ready to use.
type EventLog struct {
	// At prints an event's time (Unix ns) in its line; nil leaves the
	// time out (a wall-clock time is no stable output).
	At func(ns int64) string

	last map[string]shownEvent // by "<alloc ID>/<task>"
}

// shownEvent is the last event printed of a task.
type shownEvent struct {
	time int64
	line string
}

// Unseen prints the events of the alloc's task states (of task only,
// when not "") that no earlier call printed for allocID, one a line,
// tasks in name order; "no new events" if there is none.
func (l *EventLog) Unseen(allocID string, states map[string]*api.TaskState, task string) string {
	if l.last == nil {
		l.last = map[string]shownEvent{}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(states)) {
		if task != "" && name != task {
			continue
		}
		key := allocID + "/" + name
		for _, ev := range l.unseen(l.last[key], name, states[name].Events) {
			line := l.Line(name, ev)
			out = append(out, line)
			l.last[key] = shownEvent{ev.Time, line}
		}
	}
	if len(out) == 0 {
		return "no new events"
	}
	return strings.Join(out, "\n")
}

// unseen is the part of a task's events after last. A task keeps only
// its latest events (the client drops the oldest), so last is found by
// its time and line, or else by its time.
func (l *EventLog) unseen(last shownEvent, task string, events []*api.TaskEvent) []*api.TaskEvent {
	if last.line == "" {
		return events
	}
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].Time == last.time && l.Line(task, events[i]) == last.line {
			return events[i+1:]
		}
	}
	i := 0
	for i < len(events) && events[i].Time <= last.time {
		i++
	}
	return events[i:]
}

// Line prints one task event:
// "<task> [<time>] <type> <display message> [<detail>=<value>...]", the
// time if l.At is set, the details in key order.
func (l *EventLog) Line(task string, ev *api.TaskEvent) string {
	line := task
	if l.At != nil {
		line += " " + l.At(ev.Time)
	}
	line += fmt.Sprintf(" %s %s", ev.Type, ev.DisplayMessage)
	for _, k := range slices.Sorted(maps.Keys(ev.Details)) {
		line += fmt.Sprintf(" %s=%s", k, ev.Details[k])
	}
	return line
}

// PrometheusQuery asks /v1/metrics for the Prometheus text format
// (Operator().Metrics).
func PrometheusQuery() *api.QueryOptions {
	return &api.QueryOptions{Params: map[string]string{"format": "prometheus"}}
}

// PromSeries prints the series of a Prometheus text whose family ends in
// suffix as "<family> <hook_name> <value>", sorted, under one line of the
// labels every one of them has besides hook_name (TELEM-2), or with its
// other labels on each line if they differ; then a line for each family
// and hook name that has a second series. "none" if no series matches.
func PromSeries(text, suffix string) string {
	type series struct{ key, others, value string }
	var all []series
	seen := map[string]bool{}
	var dups []string
	for line := range strings.SplitSeq(text, "\n") {
		name, rest, ok := strings.Cut(line, "{")
		if !ok || strings.HasPrefix(line, "#") || !strings.HasSuffix(name, suffix) {
			continue
		}
		labels, value, _ := strings.Cut(rest, "} ")
		var hook string
		var others []string
		for l := range strings.SplitSeq(labels, ",") {
			if v, ok := strings.CutPrefix(l, "hook_name="); ok {
				hook = strings.Trim(v, `"`)
			} else {
				others = append(others, l)
			}
		}
		key := name + " " + hook
		if seen[key] {
			dups = append(dups, key+": a second series")
		}
		seen[key] = true
		all = append(all, series{key, strings.Join(others, ","), value})
	}
	if len(all) == 0 {
		return "none"
	}
	common := true
	for _, s := range all {
		common = common && s.others == all[0].others
	}
	var out []string
	for _, s := range all {
		if common {
			out = append(out, s.key+" "+s.value)
		} else {
			out = append(out, s.key+" {"+s.others+"} "+s.value)
		}
	}
	slices.Sort(out)
	if common {
		out = append([]string{"labels {" + all[0].others + "}"}, out...)
	}
	return strings.Join(append(out, dups...), "\n")
}
