// Package transport is the simulated network between the client and the
// server of a run: every client RPC and every call the server forwards to
// the node crosses it, is copied as through JSON (so the two sides never
// share memory, as over a real wire), may be delayed or dropped by the
// fault injector, and is traced. The copy is exactly a JSON round trip's
// result (what JSON drops is dropped, an int in an `any` comes back a
// float64, even slice capacities match) made field by field without the
// text (wireCopy, several times faster); a value that JSON does not map
// field by field goes through JSON itself.
//
// A client RPC (Conn.RPC), in order:
//
//  1. traced "send"; a closed connection or a partition fails it at once;
//  2. the injector decides its latency and whether it is dropped; the
//     call waits the latency on the virtual clock (a partition or Close
//     meanwhile fails it);
//  3. a dropped call fails here, never delivered: the network drops
//     calls, it never delivers one late, so the server never receives a
//     call after a later one (SYNC-5.4);
//  4. traced "deliver"; the server handles a copy of the args with a
//     context that a partition or Close cancels (ending blocking
//     queries, so no server wait outlives its client);
//  5. the reply is copied back and traced "reply", or the error "fail".
//
// A partition cuts every connection: in-flight calls fail, later calls
// fail at once, and forwarded calls find no path to the node, until Heal.
//
// Every args and reply is copied, and wireCopy is the one copy path: one
// reflective copier per type, built once. (Replies shared with the
// server uncopied, and copiers written by hand for jobs and task events,
// were dropped in issue 25: once the alloc pull fetched only what changed
// they saved under 2 % of the bytes allocated and no measurable CPU,
// as measured in issue 25's closing note.)
package transport
