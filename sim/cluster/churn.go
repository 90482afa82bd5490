package cluster

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/seeds"
)

// Churn is a workload modelled on a busy deployment: every client runs
// about AllocsPerClient allocs of small jobs, which start, exit, restart,
// complete, get new versions and stop over Duration. Plan draws it from
// the seed.
//
// Each client's jobs come from its own stream ("churn/<i>"), so client i's
// workload is the same whatever the number of clients. Jobs of 1 to 5
// allocs are drawn until the client has AllocsPerClient, each placed at a
// uniform whole second of the first minute (or of the first quarter of a
// shorter run), and each of one kind:
//
//	service   45 %  one task that runs until stopped
//	sidecar   20 %  a task that runs until stopped and a worker that exits
//	                with code 1 every 30 s to 3 min and restarts: the alloc
//	                stays running, so its updates change only task events
//	crashing  15 %  one task that exits with code 1 after 1 to 5 min and
//	                restarts (the alloc goes pending, then running again)
//	batch     20 %  a batch task of 20 s to 4 min that exits 0 (the alloc
//	                completes); a new job of the same shape is placed 10 s
//	                to 1 min after each one should have ended, as a periodic job does
//
// A service, sidecar or crashing job is then, with probability 25 %,
// updated to a new version (its allocs stop and new ones are placed) and,
// with probability 10 %, stopped, at a uniform whole second of the last
// four fifths of the run (and after the first minute). Operations fall
// on whole seconds, as a scheduler places in passes: Run applies a
// client's placements of one second in one server pass. Tasks start 0 to 2 s after the driver is asked (an
// image pull) and take 0 to 3 s to exit after their kill signal. The
// restart policy is 3 attempts in 5 minutes, 5 to 15 s apart, then a delay
// (Nomad's "delay" mode).
type Churn struct {
	// AllocsPerClient is how many allocs each client runs (at least 1).
	AllocsPerClient int
	// Duration is how long the run lasts (positive).
	Duration time.Duration
}

// Validate reports a churn that cannot be run.
func (ch Churn) Validate() error {
	var errs []error
	if ch.AllocsPerClient < 1 {
		errs = append(errs, fmt.Errorf("churn: %d allocs per client: want at least 1", ch.AllocsPerClient))
	}
	if ch.Duration <= 0 {
		errs = append(errs, fmt.Errorf("churn: duration %v: want a positive one", ch.Duration))
	}
	return errors.Join(errs...)
}

// OpKind is what a workload operation does.
type OpKind string

// Operations.
const (
	OpPlace  OpKind = "place"  // register a new job on the client's node
	OpUpdate OpKind = "update" // register a new version of a job there
	OpStop   OpKind = "stop"   // stop a job's allocs
)

// Op is one operation of a workload.
type Op struct {
	// At is the offset from the run's start.
	At time.Duration
	// Client is the index of the client whose node the job is on.
	Client int
	Kind   OpKind
	// Job is the job registered (place, update) or stopped (stop: its ID).
	Job *structs.Job
}

func (op Op) String() string {
	id := ""
	if op.Job != nil {
		id = op.Job.ID
	}
	return fmt.Sprintf("%s %s client %d job %s", op.At, op.Kind, op.Client, id)
}

var opOrder = map[OpKind]int{OpPlace: 0, OpUpdate: 1, OpStop: 2}

// Plan returns the workload of seed for clients clients, sorted by
// offset, then client, kind and job ID.
func (ch Churn) Plan(seed uint64, clients int) []Op {
	var ops []Op
	for i := range clients {
		ops = append(ops, ch.clientOps(seed, i)...)
	}
	slices.SortStableFunc(ops, func(a, b Op) int {
		return cmp.Or(cmp.Compare(a.At, b.At), cmp.Compare(a.Client, b.Client),
			cmp.Compare(opOrder[a.Kind], opOrder[b.Kind]), cmp.Compare(a.Job.ID, b.Job.ID))
	})
	return ops
}

// Job kinds of the churn.
const (
	kindService  = "service"
	kindSidecar  = "sidecar"
	kindCrashing = "crashing"
	kindBatch    = "batch"
)

// churnDraw draws one client's jobs.
type churnDraw struct {
	ch     Churn
	d      seeds.Drawer
	client int
}

func (ch Churn) clientOps(seed uint64, i int) []Op {
	g := churnDraw{ch: ch, d: seeds.RandDrawer{R: seeds.Stream(seed, fmt.Sprintf("churn/%d", i))}, client: i}
	fill := min(time.Minute, ch.Duration/4)
	var ops []Op
	for k, left := 0, ch.AllocsPerClient; left > 0; k++ {
		count := min(g.d.IntRange("count", 1, 5), left)
		left -= count
		kind := g.kind()
		job, runFor := g.job(fmt.Sprintf("c%d-j%d", i, k), kind, count)
		at := g.second(0, fill)
		ops = append(ops, Op{At: at, Client: i, Kind: OpPlace, Job: job})
		if kind == kindBatch {
			gap := g.second(10*time.Second, time.Minute)
			for n, t := 1, at+runFor+gap; t < ch.Duration; n, t = n+1, t+runFor+gap {
				next := job.Copy()
				next.ID = fmt.Sprintf("%s-r%d", job.ID, n)
				next.Name = next.ID
				ops = append(ops, Op{At: t, Client: i, Kind: OpPlace, Job: next})
			}
			continue
		}
		late := max(ch.Duration/5, fill) // after every first placement
		switch fate := g.d.IntRange("fate", 0, 99); {
		case fate < 25:
			next := job.Copy()
			next.Meta = maps.Clone(next.Meta)
			if next.Meta == nil {
				next.Meta = map[string]string{}
			}
			next.Meta["version"] = "2"
			ops = append(ops, Op{At: g.second(late, ch.Duration), Client: i, Kind: OpUpdate, Job: next})
		case fate < 35:
			ops = append(ops, Op{At: g.second(late, ch.Duration), Client: i, Kind: OpStop, Job: job})
		}
	}
	return ops
}

// second draws a whole number of seconds in [lo, hi) (at least lo): the
// instants of operations, as a scheduler places in passes.
func (g churnDraw) second(lo, hi time.Duration) time.Duration {
	l, h := int(lo/time.Second), int(hi/time.Second)-1
	return time.Duration(g.d.IntRange("s", l, max(l, h))) * time.Second
}

// span draws a duration in [lo, hi), to the nanosecond: task timings do
// not fall on the instants of the sync ticks (a whole number of
// milliseconds after the last call returned), so no task event and tick
// share an instant, where the order of timers armed by racing goroutines
// would decide which comes first.
func (g churnDraw) span(lo, hi time.Duration) time.Duration {
	return time.Duration(g.d.IntRange("ns", int(lo), max(int(lo), int(hi)-1)))
}

func (g churnDraw) kind() string {
	switch w := g.d.IntRange("kind", 0, 99); {
	case w < 45:
		return kindService
	case w < 65:
		return kindSidecar
	case w < 80:
		return kindCrashing
	}
	return kindBatch
}

// job draws a job of kind with count allocs, and the run time of a batch
// job's task.
func (g churnDraw) job(id, kind string, count int) (*structs.Job, time.Duration) {
	d := g.d
	policy := structs.NewRestartPolicy(3, 5*time.Minute, g.span(5*time.Second, 15*time.Second), structs.RestartPolicyModeDelay)
	j := &structs.Job{ID: id, Name: id, Type: structs.JobTypeService}
	tg := &structs.TaskGroup{Name: "g", Count: count, RestartPolicy: policy}
	j.TaskGroups = []*structs.TaskGroup{tg}
	var runFor time.Duration
	switch kind {
	case kindService:
		tg.Tasks = []*structs.Task{g.task("app", 0, 0)}
	case kindSidecar:
		worker := time.Duration(d.IntRange("worker s", 30, 180)) * time.Second
		tg.Tasks = []*structs.Task{g.task("app", 0, 0), g.task("worker", worker, 1)}
	case kindCrashing:
		tg.Tasks = []*structs.Task{g.task("app", time.Duration(d.IntRange("crash s", 60, 300))*time.Second, 1)}
	case kindBatch:
		j.Type = structs.JobTypeBatch
		tg.RestartPolicy = nil // the batch defaults
		runFor = time.Duration(d.IntRange("batch s", 20, 240)) * time.Second
		tg.Tasks = []*structs.Task{g.task("step", runFor, 0)}
	}
	j.Canonicalize()
	return j, runFor
}

// task is a mock driver task that runs for runFor (0: until stopped),
// then exits with code.
func (g churnDraw) task(name string, runFor time.Duration, code int) *structs.Task {
	cfg := map[string]any{
		"start_block_for": g.span(0, 2*time.Second).String(),
		"kill_after":      g.span(0, 3*time.Second).String(),
	}
	if runFor > 0 {
		cfg["run_for"] = runFor.String()
		cfg["exit_code"] = code
	}
	return &structs.Task{Name: name, Driver: "mock_driver", Config: cfg, KillTimeout: 5 * time.Second, KillSignal: "SIGINT"}
}
