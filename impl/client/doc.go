// Package client is the node-level client: it builds alloc runners through
// a Factory, runs the prioritized allocation sync loop of SPEC §9 and
// restores allocations from the state DB (SPEC §10).
package client
