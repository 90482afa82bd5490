package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/sim/server"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/benbjohnson/clock"
)

// Errors of the network itself. Calls return them wrapped with the method.
var (
	ErrPartitioned = errors.New("rpc error: no route to server (network partition)")
	ErrConnClosed  = errors.New("rpc error: connection closed")
)

// Handler is the server side: *server.Server.
type Handler interface {
	Call(ctx context.Context, method string, args, reply any) error
}

// Faults decides a call's latency and whether it is dropped;
// *faults.Injector implements it.
type Faults interface {
	RPC(method string) (time.Duration, error)
}

// Config configures a Network.
type Config struct {
	// Clock is the world's virtual clock (required).
	Clock clock.Clock
	// Server handles client RPCs (required).
	Server Handler
	// Faults, if set, is consulted once per client RPC.
	Faults Faults
	// Trace receives rpc records; nil discards them.
	Trace trace.Sink
}

// Network connects clients and the server. Build it with New.
type Network struct {
	cfg Config
	// bare: the sink keeps no record's data (nil, or a counting
	// Recorder), so emit skips summarizing and encoding it.
	bare bool

	mu          sync.Mutex
	partitioned bool
	conns       map[*Conn]struct{}
}

// New returns a healed network.
func New(cfg Config) (*Network, error) {
	if cfg.Clock == nil || cfg.Server == nil {
		return nil, errors.New("simulated network: config needs a clock and a server")
	}
	bare := cfg.Trace == nil
	if cfg.Trace == nil {
		cfg.Trace = trace.Discard{}
	}
	if r, ok := cfg.Trace.(*trace.Recorder); ok && !r.Keeps() {
		bare = true
	}
	return &Network{cfg: cfg, bare: bare, conns: map[*Conn]struct{}{}}, nil
}

// Partition cuts every connection until Heal: in-flight calls fail, new
// ones fail at once, forwarding finds no path.
func (n *Network) Partition() {
	n.mu.Lock()
	n.partitioned = true
	conns := make([]*Conn, 0, len(n.conns))
	for c := range n.conns {
		conns = append(conns, c)
	}
	n.mu.Unlock()
	for _, c := range conns {
		c.cut(ErrPartitioned)
	}
}

// Heal ends a partition.
func (n *Network) Heal() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.partitioned = false
}

// Partitioned reports whether a partition is on.
func (n *Network) Partitioned() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.partitioned
}

// Dial opens a client incarnation's connection for node nodeID.
func (n *Network) Dial(nodeID string) *Conn {
	c := &Conn{net: n, node: nodeID, inflight: map[uint64]context.CancelCauseFunc{}}
	n.mu.Lock()
	n.conns[c] = struct{}{}
	n.mu.Unlock()
	return c
}

// Conn is one client incarnation's connection. It implements
// interfaces.RPCClient.
type Conn struct {
	net  *Network
	node string

	mu       sync.Mutex
	closed   bool
	seq      uint64
	inflight map[uint64]context.CancelCauseFunc
}

var _ interfaces.RPCClient = (*Conn)(nil)

// Close fails every in-flight and later call with ErrConnClosed. It is
// how a crash or a shutdown ends the client's blocking queries.
func (c *Conn) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.cut(ErrConnClosed)
	c.net.mu.Lock()
	delete(c.net.conns, c)
	c.net.mu.Unlock()
}

// Closed reports whether Close was called.
func (c *Conn) Closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// cut cancels every in-flight call with cause.
func (c *Conn) cut(cause error) {
	c.mu.Lock()
	cancels := make([]context.CancelCauseFunc, 0, len(c.inflight))
	for _, cancel := range c.inflight {
		cancels = append(cancels, cancel)
	}
	c.mu.Unlock()
	for _, cancel := range cancels {
		cancel(cause)
	}
}

// begin registers a call made under parent; it fails if the connection
// is closed or the network partitioned.
func (c *Conn) begin(parent context.Context) (context.Context, func(), error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, ErrConnClosed
	}
	if c.net.Partitioned() {
		return nil, nil, ErrPartitioned
	}
	ctx, cancel := context.WithCancelCause(parent)
	c.seq++
	id := c.seq
	c.inflight[id] = cancel
	return ctx, func() {
		c.mu.Lock()
		delete(c.inflight, id)
		c.mu.Unlock()
		cancel(context.Canceled)
	}, nil
}

// RPC makes a client-to-server call (package doc).
func (c *Conn) RPC(method string, args, reply any) error {
	return c.RPCContext(context.Background(), method, args, reply)
}

// ReadsArgsOnly is true: a call reads its args only before it returns
// (to trace them and to copy them to the server) and changes nothing of
// them (the reference client's ArgsReadingRPCClient).
func (c *Conn) ReadsArgsOnly() bool { return true }

// RPCContext is RPC, also ended when ctx is done (the reference client's
// ContextRPCClient: its Shutdown cancels its blocking pull this way).
func (c *Conn) RPCContext(ctx context.Context, method string, args, reply any) error {
	ctx, done, err := c.begin(ctx)
	if errors.Is(err, ErrConnClosed) {
		// A crashed or shut-down client's calls reach nothing and leave
		// no trace.
		return fmt.Errorf("%s: %w", method, err)
	}
	c.net.emit(method, "send", args)
	if err != nil {
		return c.fail(method, err)
	}
	defer done()
	var latency time.Duration
	var drop error
	if c.net.cfg.Faults != nil {
		latency, drop = c.net.cfg.Faults.RPC(method)
	}
	if latency > 0 {
		if err := c.net.wait(ctx, latency); err != nil {
			return c.fail(method, err)
		}
	}
	if drop != nil {
		return c.fail(method, drop)
	}
	in, err := copyValue(args)
	if err != nil {
		return c.fail(method, err)
	}
	out := reflect.New(reflect.TypeOf(reply).Elem()).Interface()
	c.net.emit(method, "deliver", nil)
	if err := c.net.cfg.Server.Call(ctx, method, in, out); err != nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx) // cut by a partition, Close or the caller
		}
		return c.fail(method, err)
	}
	if err := copyInto(out, reply); err != nil {
		return c.fail(method, err)
	}
	c.net.emit(method, "reply", reply)
	return nil
}

// fail traces and returns a failed call; a call cut by Close is not
// traced (its client is gone).
func (c *Conn) fail(method string, err error) error {
	if !errors.Is(err, ErrConnClosed) {
		c.net.emit(method, "fail", map[string]string{"error": err.Error()})
	}
	return fmt.Errorf("%s: %w", method, err)
}

// wait blocks d on the clock, or until ctx is cancelled (its cause).
func (n *Network) wait(ctx context.Context, d time.Duration) error {
	fired := make(chan struct{})
	tm := n.cfg.Clock.AfterFunc(d, func() { close(fired) })
	select {
	case <-fired:
		return nil
	case <-ctx.Done():
		tm.Stop()
		return context.Cause(ctx)
	}
}

// emit traces one step of a call; data is the call's args or reply, or
// a failure's error map, traced summarized.
func (n *Network) emit(method, msg string, data any) {
	rec := trace.Record{At: n.cfg.Clock.Now(), Kind: trace.KindRPC, Op: method, Msg: msg}
	if !n.bare {
		rec.Data = trace.Encode(summarize(data))
	}
	n.cfg.Trace.Emit(rec)
}

// ClientHandler is what a connected client serves: interfaces.Client's
// ClientRPC.
type ClientHandler interface {
	ClientRPC(method string, args, reply any) error
}

// Forwarder returns the server's connection to the node behind conn,
// serving calls with client: each call is copied as through JSON both ways
// and traced; while the network is partitioned or conn is closed it fails
// with structs.MsgNoPathToNode.
func (n *Network) Forwarder(conn *Conn, client ClientHandler) server.NodeConn {
	return forwarder{net: n, conn: conn, client: client}
}

type forwarder struct {
	net    *Network
	conn   *Conn
	client ClientHandler
}

// ClientRPC forwards one call to the client (API-7).
func (f forwarder) ClientRPC(method string, args, reply any) error {
	f.net.emit(method, "forward", args)
	if f.conn.Closed() || f.net.Partitioned() {
		f.net.emit(method, "fail", map[string]string{"error": structs.MsgNoPathToNode})
		return errors.New(structs.MsgNoPathToNode)
	}
	in, err := copyValue(args)
	if err != nil {
		return err
	}
	out := reflect.New(reflect.TypeOf(reply).Elem()).Interface()
	if err := f.client.ClientRPC(method, in, out); err != nil {
		f.net.emit(method, "fail", map[string]string{"error": err.Error()})
		return err
	}
	if err := copyInto(out, reply); err != nil {
		return err
	}
	f.net.emit(method, "reply", reply)
	return nil
}

// copyValue returns a copy of v (a pointer) as through JSON, of the same
// type.
func copyValue(v any) (any, error) {
	out := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	if err := copyInto(v, out); err != nil {
		return nil, err
	}
	return out, nil
}

// copyInto copies src into dst (a pointer) as a JSON round trip does:
// wireCopy when it applies (the same result without the text), else
// through JSON.
func copyInto(src, dst any) error {
	if wireCopy(src, dst) {
		return nil
	}
	b, err := json.Marshal(src)
	if err != nil {
		return fmt.Errorf("rpc encode %T: %w", src, err)
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return fmt.Errorf("rpc decode %T: %w", dst, err)
	}
	return nil
}
