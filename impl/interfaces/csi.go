package interfaces

import (
	"context"

	"github.com/allocsim/allocsim/model/structs"
)

// CSIManager mounts and unmounts CSI volumes for an alloc (HOOKRES-2).
type CSIManager interface {
	MountVolume(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) (*CSIMountPoint, error)
	UnmountVolume(ctx context.Context, allocID, alias string, vol *structs.VolumeRequest) error
}

// CSIMountPoint is where a CSI volume was mounted on the node (HOOKRES-2).
type CSIMountPoint struct {
	// Source is the host path of the mount (or of the device node).
	Source string `json:"Source"`
	// IsDevice is true for a block device rather than a file system mount.
	IsDevice bool `json:"IsDevice"`
}
