// Package allocrunner is the reference alloc runner of SPEC §7: alloc
// hooks (alloc_dir, await_previous_allocations, migrate_disk, csi_hook),
// the update queue, kill rules and lifecycle ordering, Destroy and Shutdown.
package allocrunner
