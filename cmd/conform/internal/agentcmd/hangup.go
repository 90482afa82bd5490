package agentcmd

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// watchHangups handles SIGHUP for the rest of Run as a Nomad agent does:
// each one prints msgCaughtHangup and the agent carries on (Nomad then
// reloads its configuration; a dev agent has none to reload). It is only
// done with the process's own signals (c.Stop nil): a test's process is
// left alone.
//
// Catching SIGHUP also matters for the tasks: started under nohup, the
// process ignores SIGHUP, and an ignored disposition passes to every
// process it starts (exec keeps it). signal.Notify makes the Go runtime
// handle the signal instead (signal.Ignored then reports false), so the
// agent's raw_exec tasks get SIGHUP at its default disposition, and the
// agent itself still does not die of one. (The raw_exec driver makes sure
// of the same for any process that runs it: impl/drivers/rawexec.)
//
// The returned function stops watching and waits for the watcher to end;
// after it SIGHUP has the disposition the process started with.
func (c Config) watchHangups(stdout io.Writer) func() {
	if c.Stop != nil {
		return func() {}
	}
	hups := make(chan os.Signal, 1)
	signal.Notify(hups, syscall.SIGHUP)
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-hups:
				fmt.Fprintln(stdout, msgCaughtHangup)
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(hups)
			close(done)
			<-finished
		})
	}
}

// lockedWriter serialises the writes of Run and of the SIGHUP watcher.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
