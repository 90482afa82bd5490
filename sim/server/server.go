package server

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/allocsim/allocsim/impl/agent/records"
	"github.com/allocsim/allocsim/model/schedule"
	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/model/syncpolicy"
	"github.com/allocsim/allocsim/sim/trace"
	"github.com/benbjohnson/clock"
)

// DefaultMaxQueryTime is how long a blocking alloc pull waits for a
// change before returning the current set (Nomad's default is 5 minutes).
const DefaultMaxQueryTime = 5 * time.Minute

// Config configures a Server.
type Config struct {
	// Clock is the world's virtual clock (required).
	Clock clock.Clock
	// Rand draws alloc and eval IDs (required; the world's "server"
	// stream).
	Rand *rand.Rand
	// Profile is the admission profile of SCHED-1; empty means ent.
	Profile schedule.Profile
	// Trace receives job, commit and eval records; nil discards them.
	Trace trace.Sink
	// MaxQueryTime bounds a blocking pull; zero means DefaultMaxQueryTime.
	MaxQueryTime time.Duration
	// DiscardHistory: keep no history of received states (History
	// returns none), only each alloc's last. The cluster study, which
	// never reads it, runs without: it held every state every client
	// sent, a ninth of a 100-client run's live memory.
	DiscardHistory bool
}

// NodeConn is the server's connection to a node: how it forwards client
// RPCs (API-7). The transport provides it.
type NodeConn interface {
	ClientRPC(method string, args, reply any) error
}

type node struct {
	id     string
	status string
	conn   NodeConn
	// index is the log index of the last change to one of its allocs.
	index uint64
	// changed is closed (and replaced) when index moves: it wakes the
	// node's blocking queries, and only them.
	changed chan struct{}
	// desc is its description (DescribeNode), ID and Status aside.
	desc records.Node
}

// Server is the simulated server. Build it with New.
type Server struct {
	cfg Config

	mu     sync.Mutex
	index  uint64
	nodes  map[string]*node
	jobs   map[string]*records.Job
	allocs map[string]*structs.Allocation
	// byNode and byJob list the IDs of the allocs placed on each node and
	// of each job (allocs are never removed, and an edit keeps both): a
	// pull and a job's stop read them, not every alloc (at 100 nodes of
	// 50 allocs the scans were a tenth of a cluster run's CPU).
	byNode, byJob map[string][]string
	// allocRecs records each alloc's placing eval and job version;
	// evalRecs every evaluation (records.go). Neither is traced.
	allocRecs map[string]records.Alloc
	evalRecs  []*records.Eval
	history   map[string][]Received
	evals     []*structs.Evaluation
	stats     Stats
	batch     []*pendingUpdate
}

// New returns an empty server.
func New(cfg Config) (*Server, error) {
	if cfg.Clock == nil || cfg.Rand == nil {
		return nil, errors.New("simulated server: config needs a clock and a rand source")
	}
	if cfg.Profile == "" {
		cfg.Profile = schedule.ProfileEnt
	}
	if cfg.Trace == nil {
		cfg.Trace = trace.Discard{}
	}
	if cfg.MaxQueryTime <= 0 {
		cfg.MaxQueryTime = DefaultMaxQueryTime
	}
	return &Server{
		cfg:       cfg,
		nodes:     map[string]*node{},
		jobs:      map[string]*records.Job{},
		allocs:    map[string]*structs.Allocation{},
		byNode:    map[string][]string{},
		byJob:     map[string][]string{},
		allocRecs: map[string]records.Alloc{},
		history:   map[string][]Received{},
	}, nil
}

// RegisterNode adds a node in status (syncpolicy.NodeStatus*).
func (s *Server) RegisterNode(id, status string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.nodes[id]; ok {
		return fmt.Errorf("node %s already registered", id)
	}
	s.nodes[id] = &node{id: id, status: status, changed: make(chan struct{}), desc: records.Node{
		Name: records.DefaultNodeName(id), Datacenter: records.DefaultNodeDatacenter,
		NodePool: records.DefaultNodePool, CreateIndex: s.index,
	}}
	return nil
}

// SetNodeStatus changes a registered node's status (SYNC-4 check 4).
func (s *Server) SetNodeStatus(id, status string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.nodes[id]
	if !ok {
		return fmt.Errorf(syncpolicy.MsgNodeNotFound, id)
	}
	n.status = status
	return nil
}

// DisconnectNode is the servers losing node id (the node_disconnect
// fault: its heartbeats stop): every alloc of the node that should run
// and is not client-terminal gets ClientStatus unknown (DATA-5: a status
// only servers assign) at a new AllocModifyIndex, so that the node's next
// successful pull hands its runners the alloc to Reconnect (AR-1). The
// client's next update of an alloc sets its status again.
func (s *Server) DisconnectNode(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.nodes[id]; !ok {
		return fmt.Errorf(syncpolicy.MsgNodeNotFound, id)
	}
	var lost []*structs.Allocation
	for _, allocID := range slices.Sorted(maps.Keys(s.nodeAllocIndexes(id))) {
		if a := s.allocs[allocID]; a.DesiredStatus == structs.AllocDesiredStatusRun && !a.ClientTerminal() && a.ClientStatus != structs.AllocClientStatusUnknown {
			lost = append(lost, a)
		}
	}
	if len(lost) == 0 {
		return nil
	}
	idx := s.bump(id)
	ids := make([]string, len(lost))
	for i, a := range lost {
		a = s.edit(a)
		a.ClientStatus = structs.AllocClientStatusUnknown
		a.AllocModifyIndex, a.ModifyIndex = idx, idx
		ids[i] = a.ID
	}
	s.emit(trace.KindServer, "", "node_disconnect", "", map[string]any{"node": id, "index": idx, "allocs": ids})
	return nil
}

// Connect records conn as the node's connection, replacing any; nil
// disconnects it (forwarding then fails with structs.MsgNoPathToNode).
func (s *Server) Connect(nodeID string, conn NodeConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := s.nodes[nodeID]; ok {
		n.conn = conn
	}
}

// Call is the server's RPC entry point: it dispatches method with args
// and reply of the shapes of model/structs/rpc.go. ctx is the caller's
// connection; a blocking query ends when it is done. A reply may share
// the server's data (GetAllocs): callers copy it, as the transport
// does, before changing anything. A Node.GetClientAllocs call whose reply
// is the old NodeClientAllocsResponse fails with
// structs.MsgGetClientAllocsReplyChanged.
func (s *Server) Call(ctx context.Context, method string, args, reply any) error {
	bad := fmt.Errorf("rpc %s: args of type %T, reply of type %T", method, args, reply)
	switch method {
	case structs.RPCNodeUpdateAlloc:
		a, ok1 := args.(*structs.AllocUpdateRequest)
		r, ok2 := reply.(*structs.GenericResponse)
		if !ok1 || !ok2 {
			return bad
		}
		return s.UpdateAlloc(ctx, a, r)
	case structs.RPCNodeGetClientAllocs:
		a, ok1 := args.(*structs.NodeClientAllocsRequest)
		r, ok2 := reply.(*structs.NodeClientAllocsIndexResponse)
		//lint:ignore SA1019 the old reply is recognised only to name the change
		if _, old := reply.(*structs.NodeClientAllocsResponse); old {
			return errors.New(structs.MsgGetClientAllocsReplyChanged)
		}
		if !ok1 || !ok2 {
			return bad
		}
		return s.GetClientAllocs(ctx, a, r)
	case structs.RPCAllocGetAllocs:
		a, ok1 := args.(*structs.AllocsGetRequest)
		r, ok2 := reply.(*structs.AllocsGetResponse)
		if !ok1 || !ok2 {
			return bad
		}
		return s.GetAllocs(a, r)
	case structs.RPCServerSetPauseState:
		a, ok1 := args.(*structs.AllocPauseRequest)
		r, ok2 := reply.(*structs.GenericResponse)
		if !ok1 || !ok2 {
			return bad
		}
		return s.SetPauseState(a, r)
	case structs.RPCServerGetPauseState:
		a, ok1 := args.(*structs.AllocGetPauseStateRequest)
		r, ok2 := reply.(*structs.AllocGetPauseStateResponse)
		if !ok1 || !ok2 {
			return bad
		}
		return s.GetPauseState(a, r)
	case structs.RPCServerSignal:
		a, ok1 := args.(*structs.AllocSignalRequest)
		r, ok2 := reply.(*structs.GenericResponse)
		if !ok1 || !ok2 {
			return bad
		}
		return s.Signal(a, r)
	case structs.RPCServerRestart:
		a, ok1 := args.(*structs.AllocRestartRequest)
		r, ok2 := reply.(*structs.GenericResponse)
		if !ok1 || !ok2 {
			return bad
		}
		return s.Restart(a, r)
	}
	return fmt.Errorf("rpc: can't find method %s", method)
}

// bump starts a new log index for a change to nodeIDs' allocs (a node
// may be listed twice) and wakes those nodes' blocking queries: a query
// of another node would only find its index unchanged and wait again
// (at 1,000 nodes, every change woke 1,000 queries). With the lock held.
func (s *Server) bump(nodeIDs ...string) uint64 {
	s.index++
	for _, id := range nodeIDs {
		if n, ok := s.nodes[id]; ok && n.index != s.index {
			n.index = s.index
			close(n.changed)
			n.changed = make(chan struct{})
		}
	}
	return s.index
}

// emit records a trace record at the current instant.
func (s *Server) emit(kind trace.Kind, alloc, op, msg string, data any) {
	s.cfg.Trace.Emit(trace.Record{
		At: s.cfg.Clock.Now(), Kind: kind, Alloc: alloc, Op: op, Msg: msg, Data: trace.Encode(data),
	})
}

// placementNode is the first registered node, by ID, that may run allocs.
func (s *Server) placementNode() *node {
	ids := make([]string, 0, len(s.nodes))
	for id, n := range s.nodes {
		if syncpolicy.NodeMayUpdateAllocs(n.status) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	return s.nodes[ids[0]]
}
