// Package agent serves the Nomad-compatible HTTP API of SPEC §5 and routes
// requests from the agent to the server and the client.
package agent
