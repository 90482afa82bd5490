package concurrent

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/benbjohnson/clock"
)

// users are goroutines calling the contract's methods at random until
// stopped. Calls that make a runner call its ports (signals, restarts,
// persisting, client RPCs) stop at quiet, so that a port call after the
// client shut down is the runner's own; reads go on until stop, paced
// (pace) once the client has shut down.
type users struct {
	ids    []string
	runner func(id string) (interfaces.AllocRunner, bool)
	rpc    func(method string, args, reply any) error // nil: no client

	wall clock.Clock // real time, for paced calls

	writes sync.RWMutex
	quiet  bool
	paced  chan struct{} // closed: a call every paceEvery, no longer flat out
	stop   chan struct{}
	wg     sync.WaitGroup

	calls atomic.Int64 // calls made so far

	mu       sync.Mutex
	problems []string
}

func newUsers(wall clock.Clock, ids []string, runner func(string) (interfaces.AllocRunner, bool), rpc func(string, any, any) error) *users {
	return &users{wall: wall, ids: ids, runner: runner, rpc: rpc, paced: make(chan struct{}), stop: make(chan struct{})}
}

// start starts n users, each with its own source.
func (u *users) start(n int, seed uint64) {
	for i := range n {
		u.wg.Add(1)
		go u.loop(rand.New(rand.NewPCG(seed, uint64(i))))
	}
}

// hush stops the port-calling calls, waiting for those in progress.
func (u *users) hush() {
	u.writes.Lock()
	u.quiet = true
	u.writes.Unlock()
}

// paceEvery is how long a paced user waits between calls.
const paceEvery = time.Millisecond

// pace slows the users down to a call each every paceEvery: once the
// client shut down, a check only waits (real time) for what a runner
// might still do, and users calling flat out would spend a CPU on the
// wait.
func (u *users) pace() {
	close(u.paced)
}

// end stops the users and waits for them; done is closed then.
func (u *users) end() (done chan struct{}) {
	close(u.stop)
	done = make(chan struct{})
	go func() {
		u.wg.Wait()
		close(done)
	}()
	return done
}

func (u *users) problem(format string, args ...any) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if len(u.problems) < 4 {
		u.problems = append(u.problems, fmt.Sprintf(format, args...))
	}
}

func (u *users) loop(r *rand.Rand) {
	defer u.wg.Done()
	for {
		select {
		case <-u.stop:
			return
		case <-u.paced:
			select {
			case <-u.stop:
				return
			case <-u.wall.After(paceEvery):
			}
		default:
		}
		u.calls.Add(1)
		u.call(r)
		// A user yields after every call: the runner's goroutines wait
		// behind it otherwise, for a time slice (10 ms) of each user
		// when the process has one P (conform's GOMAXPROCS=1), and a
		// check took a second of real time instead of tens of ms.
		runtime.Gosched()
	}
}

// call looks a runner up (the client's AllocRunner) and calls one of its
// methods, a write one time in three.
func (u *users) call(r *rand.Rand) {
	id := u.ids[r.IntN(len(u.ids))]
	ar, ok := u.runner(id)
	if !ok {
		return
	}
	if r.IntN(3) == 0 {
		u.write(r, id, ar)
	} else {
		u.read(r, ar)
	}
}

// read calls a method that reads or subscribes.
func (u *users) read(r *rand.Rand, ar interfaces.AllocRunner) {
	switch r.IntN(6) {
	case 0:
		if msg := wellFormed(ar.AllocState()); msg != "" {
			u.problem("%s", msg)
		}
	case 1:
		if a := ar.Alloc(); a == nil {
			u.problem("Alloc returned nil")
		}
	case 2:
		l := ar.Listener()
		select {
		case a, open := <-l.Ch():
			if open && a == nil {
				u.problem("a listener delivered a nil alloc")
			}
		default:
		}
		l.Close()
	case 3:
		_, _ = ar.GetTaskPauseState(taskSteady)
	case 4:
		_ = ar.IsDestroyed()
		_ = ar.IsWaiting()
		_ = ar.IsMigrating()
	default:
		select {
		case <-ar.WaitCh():
		case <-ar.ShutdownCh():
		case <-ar.DestroyCh():
		default:
		}
	}
}

// write calls a method that may reach the runner's ports, unless quiet.
func (u *users) write(r *rand.Rand, id string, ar interfaces.AllocRunner) {
	u.writes.RLock()
	defer u.writes.RUnlock()
	if u.quiet {
		return
	}
	var reply structs.GenericResponse
	switch k := r.IntN(4); {
	case k == 0 || u.rpc == nil && k >= 2:
		_ = ar.PersistState()
	case k == 1:
		_ = ar.Signal(taskSteady, "SIGUSR1")
	case k == 2:
		_ = u.rpc(structs.RPCClientSignal, &structs.AllocSignalRequest{AllocID: id, Task: taskFlaky, Signal: "SIGHUP"}, &reply)
	default:
		_ = u.rpc(structs.RPCClientRestart, &structs.AllocRestartRequest{AllocID: id, TaskName: taskSteady}, &reply)
	}
}
