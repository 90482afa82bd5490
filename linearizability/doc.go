// Package linearizability turns trace fragments into porcupine histories
// (hook resources per alloc, the server's view of each alloc) and checks
// them.
package linearizability
