// Package hookresources holds the suite's hook-resource properties (SPEC §8,
// HOOKRES-1..HOOKRES-4): what a task's volumes prestart may see of its
// alloc's CSI mount map while restores, CSI mounts that block or fail,
// and client crashes race it (#16623).
//
// Hook resources live inside a runner; the suite sees them from outside,
// through the contract: the CSI hook's write is the moment the last of an
// alloc's volumes is mounted in a client incarnation (HOOKRES-2 sets the
// complete map once, after every mount), and a prestart's read is either
// a `Task hook failed` event naming the first missing alias (HOOKRES-3
// checks aliases in sorted order) or the task's driver start (every alias
// was present). Each (alloc, incarnation) is one history, one hook
// resources object, checked for linearizability by linearizability/.
package hookresources
