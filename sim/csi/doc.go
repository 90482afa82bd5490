// Package csi is the simulated CSI plugin of a run: an
// interfaces.CSIManager whose mounts take virtual time and may fail, as
// the fault injector decides, and whose every call is traced with its
// invoke and return instants (HOOKRES-2, HOOKRES-4: the blocking point
// between csi_hook's mounts and the task prestarts that read them is under
// the simulator's control).
//
// A mount of alias for an alloc returns the mount point
// /csi/per-alloc/<allocID>/<alias>/<volume source> (not a device). It
// waits its latency on the virtual clock (returning the context's error if
// the caller gives up first), then fails or succeeds. Unmounts take no
// time and forget the mount. The plugin outlives client crashes, as a
// node plugin does.
package csi
