// Package minimal is the smallest AllocRunner that satisfies the Factory
// type (SPEC AR-3), for node simulators that want client↔server traffic
// without the full runner, and the worked example for anyone writing their
// own runner.
//
// What a client needs from a runner is narrower than the AllocRunner
// interface: it builds the runner, calls Run in a goroutine, hands it newer
// server allocs (Update, Reconnect), asks how urgent each buffered state is
// (GetUpdatePriority), acknowledges what the servers stored
// (AcknowledgeState) and shuts it down or destroys it. The minimal runner
// does exactly that much:
//
//  1. Run sets ClientStatus `running`, reports the alloc once through
//     Config.StateUpdater.AllocStateUpdated (SYNC-1) and returns. No task
//     is started; no task state exists.
//  2. Update and Reconnect replace the alloc with the server's; nothing is
//     reported (there is no client-side change to report).
//  3. WaitCh never closes: the alloc never finishes, because nothing runs
//     that could finish. A client must therefore not wait on WaitCh to
//     learn that Run returned.
//  4. DestroyCh and ShutdownCh start closed: there is nothing to stop, so
//     anyone waiting for a stop or a destroy is released at once.
//  5. GetUpdatePriority is always Urgent: with no acknowledged state to
//     compare against, every buffered state rides the next sync tick
//     (SYNC-3), which is the traffic a node simulator wants to see.
//  6. Every other method is a no-op: errors are nil, the pause state is
//     "", the alloc dir is nil, the listener never delivers.
//
// The package imports only the contract packages (impl/interfaces) and
// model/, as a runner written in another module would; the conformance
// suite and the simulator take it as reference.Minimal, this runner on
// the reference node client.
package minimal
