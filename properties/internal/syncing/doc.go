// Package syncing holds the suite's client-to-server allocation sync
// properties (SPEC §9, SYNC-1..SYNC-5): what the server receives of each
// alloc, and when.
package syncing
