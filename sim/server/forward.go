package server

import (
	"errors"
	"fmt"

	"github.com/allocsim/allocsim/model/structs"
)

// SetPauseState is ClientAllocations.SetPauseState (API-7): routed to the
// alloc's node as Allocations.SetPauseState, its reply and error returned
// verbatim.
func (s *Server) SetPauseState(args *structs.AllocPauseRequest, reply *structs.GenericResponse) error {
	conn, err := s.route(args.AllocID)
	if err != nil {
		return err
	}
	return conn.ClientRPC(structs.RPCClientSetPauseState, args, reply)
}

// GetPauseState is ClientAllocations.GetPauseState (API-7).
func (s *Server) GetPauseState(args *structs.AllocGetPauseStateRequest, reply *structs.AllocGetPauseStateResponse) error {
	conn, err := s.route(args.AllocID)
	if err != nil {
		return err
	}
	return conn.ClientRPC(structs.RPCClientGetPauseState, args, reply)
}

// Signal is ClientAllocations.Signal (API-7).
func (s *Server) Signal(args *structs.AllocSignalRequest, reply *structs.GenericResponse) error {
	conn, err := s.route(args.AllocID)
	if err != nil {
		return err
	}
	return conn.ClientRPC(structs.RPCClientSignal, args, reply)
}

// Restart is ClientAllocations.Restart (routed as API-7's calls are).
func (s *Server) Restart(args *structs.AllocRestartRequest, reply *structs.GenericResponse) error {
	conn, err := s.route(args.AllocID)
	if err != nil {
		return err
	}
	return conn.ClientRPC(structs.RPCClientRestart, args, reply)
}

// route applies API-7's server checks in order: an alloc ID, a known
// alloc, a connected node.
func (s *Server) route(allocID string) (NodeConn, error) {
	if allocID == "" {
		return nil, errors.New(structs.MsgMissingAllocID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.allocs[allocID]
	if !ok {
		return nil, fmt.Errorf(structs.FmtUnknownAllocation, allocID)
	}
	n, ok := s.nodes[a.NodeID]
	if !ok || n.conn == nil {
		return nil, errors.New(structs.MsgNoPathToNode)
	}
	return n.conn, nil
}
