package timeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/sim/faults"
	"github.com/allocsim/allocsim/sim/scenario"
	"github.com/allocsim/allocsim/sim/trace"
)

// Load reads a trace (JSON lines) and its scenario (JSON) and builds
// their timeline.
func Load(tracePath, scenarioPath string) (*Timeline, error) {
	f, err := os.Open(tracePath)
	if err != nil {
		return nil, fmt.Errorf("load timeline: %w", err)
	}
	defer f.Close()
	records, err := trace.Read(f)
	if err != nil {
		return nil, fmt.Errorf("load timeline: trace %s: %w", tracePath, err)
	}
	sc, err := scenario.Load(scenarioPath)
	if err != nil {
		return nil, fmt.Errorf("load timeline: %w", err)
	}
	tl, err := Build(records, sc)
	if err != nil {
		return nil, fmt.Errorf("load timeline of %s: %w", tracePath, err)
	}
	return tl, nil
}

// Build makes the timeline of a run from its trace records (in trace
// order) and its scenario.
func Build(records []trace.Record, sc scenario.Scenario) (*Timeline, error) {
	if len(records) == 0 {
		return nil, errors.New("build timeline: no trace records")
	}
	local, err := schedule.LoadZone(sc.LocalZone, nil)
	if err != nil {
		return nil, fmt.Errorf("build timeline: local zone: %w", err)
	}
	tl := &Timeline{Scenario: sc.Name, Seed: sc.Seed, Local: local, Start: sc.Start.UTC(), End: records[0].At.UTC()}
	if sc.Start.IsZero() {
		tl.Start = records[0].At.UTC()
	}
	for _, r := range records {
		if r.At.After(tl.End) {
			tl.End = r.At.UTC()
		}
	}
	if !tl.End.After(tl.Start) {
		tl.End = tl.Start.Add(time.Second)
	}
	b := builder{tl: tl, sc: sc, allocs: resolveAllocs(records, sc), lanes: map[laneKey]*Lane{}}
	for i, r := range records {
		b.record(i, r)
	}
	b.finish(records)
	return tl, nil
}

type laneKey struct{ alloc, task string }

type builder struct {
	tl     *Timeline
	sc     scenario.Scenario
	allocs map[string]*allocInfo
	lanes  map[laneKey]*Lane
	// failedUpdates are the instants of update_schedule calls that
	// failed.
	failedUpdates []time.Time
}

// lane returns the lane of (alloc, task), made on first use.
func (b *builder) lane(alloc, task string) *Lane {
	k := laneKey{alloc, task}
	if l, ok := b.lanes[k]; ok {
		return l
	}
	l := &Lane{AllocID: alloc, Alloc: b.name(alloc), Task: task}
	if a := b.allocs[alloc]; a != nil {
		l.Job, l.Group = a.job, a.group
	}
	b.lanes[k] = l
	return l
}

func (b *builder) name(alloc string) string {
	if a := b.allocs[alloc]; a != nil {
		return a.name
	}
	return short(alloc)
}

func (b *builder) note(i int, r trace.Record, subject, text string) {
	b.tl.Notes = append(b.tl.Notes, Note{At: r.At.UTC(), Subject: subject, Text: text, seq: i})
}

func (b *builder) mark(i int, r trace.Record, kind MarkKind, label string) {
	b.tl.Marks = append(b.tl.Marks, Mark{At: r.At.UTC(), Kind: kind, Label: label, seq: i})
}

// record adds one trace record; noise (state DB writes, metrics, driver,
// CSI and port calls, server commits) adds nothing.
func (b *builder) record(i int, r trace.Record) {
	at := r.At.UTC()
	switch r.Kind {
	case trace.KindTask:
		if r.Alloc != "" && r.Task != "" {
			b.task(i, b.lane(r.Alloc, r.Task), r)
		}
	case trace.KindTaskEvent:
		if r.Alloc != "" && r.Task != "" {
			var d struct {
				Display   string `json:"display"`
				Message   string `json:"message"`
				FailsTask bool   `json:"fails_task"`
			}
			_ = json.Unmarshal(r.Data, &d)
			l := b.lane(r.Alloc, r.Task)
			l.Events = append(l.Events, Event{At: at, Type: r.Msg, Display: cmp.Or(d.Display, d.Message), FailsTask: d.FailsTask, seq: i})
		}
	case trace.KindAPI:
		b.api(i, r)
	case trace.KindRPC:
		b.tl.RPCs = append(b.tl.RPCs, RPC{At: at, Op: r.Op, Phase: r.Msg, Detail: b.rpcDetail(r), seq: i})
	case trace.KindFault:
		b.fault(i, r)
	case trace.KindWorld:
		b.world(i, r)
	case trace.KindViolation:
		b.mark(i, r, MarkViolation, r.Msg)
	case trace.KindJob:
		var d jobData
		_ = json.Unmarshal(r.Data, &d)
		text := r.Op + " " + r.Msg
		if len(d.Allocs) > 0 {
			names := make([]string, len(d.Allocs))
			for j, id := range d.Allocs {
				names[j] = b.name(id)
			}
			text += " " + strings.Join(names, " ")
		}
		if d.Error != "" {
			text += ": " + d.Error
		}
		b.note(i, r, "job "+cmp.Or(d.Job, "?"), text)
	case trace.KindAlloc:
		var d struct {
			Description string `json:"description"`
		}
		_ = json.Unmarshal(r.Data, &d)
		text := "client status " + r.Msg
		if d.Description != "" {
			text += " (" + d.Description + ")"
		}
		b.note(i, r, b.name(r.Alloc), text)
	}
}

// task starts a state segment; a change at the instant of the previous
// one replaces it.
func (b *builder) task(i int, l *Lane, r trace.Record) {
	var d struct {
		Paused   string `json:"paused"`
		Failed   bool   `json:"failed"`
		Restarts uint64 `json:"restarts"`
	}
	_ = json.Unmarshal(r.Data, &d)
	at := r.At.UTC()
	seg := Segment{From: at, To: b.tl.End, State: r.Msg, Paused: d.Paused, Failed: d.Failed, Restarts: d.Restarts, seq: i}
	if n := len(l.States); n > 0 {
		if l.States[n-1].From.Equal(at) {
			l.States = l.States[:n-1]
		} else {
			l.States[n-1].To = at
		}
	}
	l.States = append(l.States, seg)
}

func (b *builder) api(i int, r trace.Record) {
	var d struct {
		State string `json:"state"`
		Error string `json:"error"`
	}
	_ = json.Unmarshal(r.Data, &d)
	if r.Op == string(scenario.OpUpdateSchedule) && r.Msg != "ok" {
		b.failedUpdates = append(b.failedUpdates, r.At)
	}
	state := cmp.Or(string(scenario.Op(r.Op).ScheduleState()), d.State)
	call := Call{At: r.At.UTC(), Op: r.Op, State: state, Error: d.Error, seq: i}
	if a := b.allocs[r.Alloc]; a != nil && r.Alloc != "" {
		n := 0
		for _, task := range a.tasks {
			if r.Task == "" || task == r.Task {
				l := b.lane(r.Alloc, task)
				l.Calls = append(l.Calls, call)
				n++
			}
		}
		if n > 0 {
			return
		}
	}
	subject := "api"
	if r.Alloc != "" {
		subject = b.name(r.Alloc)
	}
	text := r.Op
	if target := b.callTarget(r); target != "" {
		text += " " + target
	}
	if r.Task != "" {
		text += " task " + r.Task
	}
	if d.Error != "" {
		text += ": error: " + d.Error
	} else {
		text += ": " + r.Msg
	}
	b.note(i, r, subject, text)
}

// callTarget is the job or alloc the scenario call traced by r names,
// when one call of its instant and op does.
func (b *builder) callTarget(r trace.Record) string {
	var out []string
	for _, c := range b.sc.Calls {
		if b.sc.Start.Add(c.At.D()).Equal(r.At) && string(c.Op) == r.Op && c.Task == r.Task {
			out = append(out, cmp.Or(c.Job, c.Alloc))
		}
	}
	if len(slices.Compact(out)) != 1 {
		return ""
	}
	return out[0]
}

func (b *builder) rpcDetail(r trace.Record) string {
	var d struct {
		Error  string `json:"error"`
		Index  uint64 `json:"Index"`
		Evals  int    `json:"evals"`
		Allocs []struct {
			ID           string `json:"id"`
			ClientStatus string `json:"client_status"`
		} `json:"allocs"`
	}
	_ = json.Unmarshal(r.Data, &d)
	switch {
	case d.Error != "":
		return d.Error
	case r.Op != opUpdateAlloc:
		return ""
	case r.Msg == "reply":
		return fmt.Sprintf("index %d", d.Index)
	case r.Msg != "send":
		return ""
	}
	var parts []string
	for j, a := range d.Allocs {
		if j == 3 {
			parts = append(parts, fmt.Sprintf("+%d more", len(d.Allocs)-j))
			break
		}
		parts = append(parts, b.name(a.ID)+" "+a.ClientStatus)
	}
	if d.Evals > 0 {
		parts = append(parts, fmt.Sprintf("%d evals", d.Evals))
	}
	return strings.Join(parts, ", ")
}

func (b *builder) fault(i int, r trace.Record) {
	class, target, _ := strings.Cut(r.Op, " ")
	switch {
	case class == string(faults.ClientCrash):
		return // the world's client_crash record marks it
	case class == "":
		b.mark(i, r, MarkFault, "faults "+r.Msg)
		return
	}
	label := class
	if r.Alloc != "" {
		target = strings.ReplaceAll(target, r.Alloc, b.name(r.Alloc))
	}
	if target != "" {
		label += " " + target
	}
	if r.Msg != "" {
		label += ": " + r.Msg
	}
	b.mark(i, r, MarkFault, label)
}

func (b *builder) world(i int, r trace.Record) {
	var d struct {
		Runner      string `json:"runner"`
		Incarnation int    `json:"incarnation"`
		Error       string `json:"error"`
	}
	_ = json.Unmarshal(r.Data, &d)
	switch r.Msg {
	case "start":
		b.tl.Runner = d.Runner
		b.note(i, r, "world", "run starts")
	case "end":
		b.note(i, r, "world", "run ends")
	case trace.MsgClientCrash:
		b.mark(i, r, MarkCrash, "client crash"+incarnation(d.Incarnation))
	case trace.MsgClientStart:
		text := "client start" + incarnation(d.Incarnation)
		if d.Error != "" {
			text += ": " + d.Error
		}
		if d.Incarnation > 1 {
			b.mark(i, r, MarkRestart, text)
		} else {
			b.note(i, r, "client", text)
		}
	}
}

// finish sorts the lanes, computes their windows and orders the marks.
func (b *builder) finish(records []trace.Record) {
	rejected := rejectedAt(records)
	for _, l := range b.lanes {
		a := b.allocs[l.AllocID]
		if a != nil && l.Job != "" && l.Group != "" {
			from := later(a.registered, b.tl.Start)
			l.Schedules = spans(versions(b.sc, l.Job, l.Group, l.Task, rejected, b.failedUpdates), from, b.tl.End)
		}
		laneWindows(l, b.tl.Local)
		b.tl.Lanes = append(b.tl.Lanes, *l)
	}
	order := func(l Lane) int {
		if a := b.allocs[l.AllocID]; a != nil {
			if i, ok := a.order[l.Task]; ok {
				return i
			}
		}
		return 1 << 20
	}
	slices.SortFunc(b.tl.Lanes, func(x, y Lane) int {
		return cmp.Or(cmp.Compare(x.Alloc, y.Alloc), cmp.Compare(x.AllocID, y.AllocID),
			cmp.Compare(order(x), order(y)), cmp.Compare(x.Task, y.Task))
	})
	sortMarks(b.tl.Marks)
}

func incarnation(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" (incarnation %d)", n)
}
