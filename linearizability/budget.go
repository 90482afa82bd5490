package linearizability

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// A Budget bounds the work of checking one partition in units that do not
// depend on the clock, so that a check ends, with the same verdict on
// every run, inside a testing/synctest bubble too: there porcupine's own
// time limit (time.After) is virtual and never fires while the check
// computes. A partition that runs out of its budget is Unknown: not
// proven, never a pass, and a limit of the suite, not a fault of the
// history's runner.
//
// A zero field takes DefaultBudget's value; a negative one lifts that
// limit.
type Budget struct {
	// Ops is the most operations a partition may hold. A larger one is
	// not searched at all.
	Ops int
	// Steps is the most calls of the model's step function the search of
	// one partition may make: it bounds the search's time.
	Steps int
	// Memory bounds, in bytes, the search states porcupine keeps for one
	// partition (its cache of visited states, which grows with each step
	// the model accepts and is only freed when the check ends), estimated
	// as StateBytes(ops) per accepted step.
	Memory int64
}

// DefaultBudget is the budget of a check whose Options leave it zero. The
// suite's histories are far inside it (measured over the conformance and
// mutant suites: at most 14 operations and 18 model steps per partition);
// it is sized so that a history the search cannot settle ends in about a
// second of work and tens of MiB, well inside the simulator's stall
// period, while a long linearizable history is still decided.
//
//   - Ops, 10,000: a linearizable history of 10,000 operations with five in
//     flight takes about 0.2 s, 18,400 model steps and 13,800 search
//     states, 20 MiB by StateBytes (BenchmarkPorcupine10k). Each state
//     copies a bit per operation, so state memory, and the work of each
//     step, grow with the history's length: a longer history is Unknown
//     without a search (its builder should cut or sample it).
//   - Steps, 100,000: five times what that history needs, and about 0.1 s
//     (server view) to 0.4 s (hook resources, whose states are maps) of a
//     search gone exponential: several operations of uncertain effect in
//     flight at once, 2^n subsets of them to try.
//   - Memory, 32 MiB: 1.6 times that history's states (StateBytes
//     estimates them); it is what stops a long history whose search goes
//     exponential near its end, where each state is large (23,000 states
//     of 10,000 operations, about half a second).
var DefaultBudget = Budget{Ops: 10_000, Steps: 100_000, Memory: 32 << 20}

// withDefaults fills b's zero fields from DefaultBudget.
func (b Budget) withDefaults() Budget {
	if b.Ops == 0 {
		b.Ops = DefaultBudget.Ops
	}
	if b.Steps == 0 {
		b.Steps = DefaultBudget.Steps
	}
	if b.Memory == 0 {
		b.Memory = DefaultBudget.Memory
	}
	return b
}

// String renders b as the suite's budget per partition.
func (b Budget) String() string {
	return fmt.Sprintf("%s, %s and %s per partition",
		limitText(int64(b.Ops), "operations"), limitText(int64(b.Steps), "model steps"), memoryText(b.Memory))
}

func limitText(n int64, unit string) string {
	if n < 0 {
		return "no limit of " + unit
	}
	return fmt.Sprintf("%d %s", n, unit)
}

func memoryText(n int64) string {
	switch {
	case n < 0:
		return "no limit of search memory"
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB of search state", n>>20)
	default:
		return fmt.Sprintf("%d bytes of search state", n)
	}
}

// StateBytes estimates what one search state of porcupine costs, in
// bytes, for a partition of ops operations: the set of operations
// linearized so far (a bit per operation, in 64-bit words, copied into
// each cache entry), the cache entry and the model state it holds, and
// the search stack's entry.
func StateBytes(ops int) int64 {
	const overhead = 160 // cache entry, map slot, stack entry, boxed model state
	return 8*int64((ops+63)/64) + overhead
}

// A Limit names the part of a Budget that a partition ran out of.
type Limit int

const (
	// LimitOps: the partition holds more operations than Budget.Ops; it
	// was not searched.
	LimitOps Limit = iota + 1
	// LimitSteps: the search took Budget.Steps model steps without a
	// verdict.
	LimitSteps
	// LimitMemory: the search's states reached Budget.Memory.
	LimitMemory
)

// String returns "operations", "model steps" or "search memory".
func (l Limit) String() string {
	switch l {
	case LimitOps:
		return "operations"
	case LimitSteps:
		return "model steps"
	case LimitMemory:
		return "search memory"
	default:
		return fmt.Sprintf("limit(%d)", int(l))
	}
}

// Exhausted records a partition that ran out of its budget before a
// verdict: it is Unknown.
type Exhausted struct {
	// Key is the partition's.
	Key string
	// Limit is the part of Budget that ran out.
	Limit Limit
	// Ops is how many operations the partition holds; InFlight its
	// MaxInFlight, the measure the search is exponential in.
	Ops, InFlight int
	// Steps is how many model steps the search took, and States how many
	// of them the model accepted (each a search state kept); both 0 when
	// the partition was not searched (LimitOps).
	Steps, States int
	// Budget is the budget the partition ran out of, defaults filled in.
	Budget Budget
}

// String says which budget ran out, with the numbers, and whose limit it
// is.
func (e Exhausted) String() string {
	var what string
	switch e.Limit {
	case LimitOps:
		what = fmt.Sprintf("%d operations, over the suite's budget of %d operations per partition; not searched",
			e.Ops, e.Budget.Ops)
	case LimitSteps:
		what = fmt.Sprintf("%d operations (at most %d in flight), not decided within the suite's budget of %d model steps per partition",
			e.Ops, e.InFlight, e.Budget.Steps)
	case LimitMemory:
		what = fmt.Sprintf("%d operations (at most %d in flight), not decided within the suite's budget of %s per partition (%d search states of about %d bytes, after %d model steps)",
			e.Ops, e.InFlight, memoryText(e.Budget.Memory), e.States, StateBytes(e.Ops), e.Steps)
	default:
		what = fmt.Sprintf("%d operations, %v", e.Ops, e.Limit)
	}
	return fmt.Sprintf("partition %q: %s (a limit of the suite, not a fault of the runner)", e.Key, what)
}

// meter counts the work of one partition's search against its budget.
// Only the goroutine porcupine checks the partition on calls its step
// function, and porcupine returns only after that goroutine is done, so
// the counts need no lock.
type meter struct {
	budget        Budget
	stateBytes    int64
	steps, states int
	out           Limit // 0 while the budget lasts
}

// wrap returns model with a step function that counts against m and,
// once the budget is spent, refuses every step. Refusing unwinds
// porcupine's search quickly (each refused step only moves the search on,
// and it then backtracks to the start) and ends it with Illegal, which the
// caller must read as Unknown whenever m.out is set: a refused step proves
// nothing. A linearization porcupine completes is made of accepted steps
// only, so an Ok stays an Ok.
//
// The models here set Step, not StepContext; porcupine derives the one
// from the other.
func (m *meter) wrap(model porcupine.Model) porcupine.Model {
	step := model.Step
	model.Step = func(state, input, output any) (bool, any) {
		if m.out != 0 {
			return false, state
		}
		if m.budget.Steps >= 0 && m.steps >= m.budget.Steps {
			m.out = LimitSteps
			return false, state
		}
		if m.budget.Memory >= 0 && int64(m.states+1)*m.stateBytes > m.budget.Memory {
			m.out = LimitMemory
			return false, state
		}
		m.steps++
		ok, next := step(state, input, output)
		if ok {
			m.states++
		}
		return ok, next
	}
	return model
}
