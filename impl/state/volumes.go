package state

// AllocVolumes is an alloc's persisted CSI state (STATE-1 `alloc_volume`):
// enough for csi_hook to re-mount every CSI volume on restore without
// asking the server (STATE-4, HOOKRES-2).
type AllocVolumes struct {
	// CSIVolumes maps a group volume alias to its stub.
	CSIVolumes map[string]*CSIVolumeStub `json:"CSIVolumes"`
}

// Copy returns a deep copy.
func (v *AllocVolumes) Copy() *AllocVolumes {
	if v == nil {
		return nil
	}
	out := &AllocVolumes{}
	if v.CSIVolumes != nil {
		out.CSIVolumes = make(map[string]*CSIVolumeStub, len(v.CSIVolumes))
		for alias, s := range v.CSIVolumes {
			out.CSIVolumes[alias] = s.Copy()
		}
	}
	return out
}

// CSIVolumeStub is what a CSI mount needs, per group volume alias.
type CSIVolumeStub struct {
	// VolumeID is the CSI volume's ID (the group VolumeRequest's Source).
	VolumeID string `json:"VolumeID"`
	// VolumeName is the group VolumeRequest's Name.
	VolumeName string `json:"VolumeName"`
	// PluginID names the CSI plugin that serves the volume.
	PluginID string `json:"PluginID"`
	// ExternalNodeID is the plugin's ID for this node.
	ExternalNodeID string `json:"ExternalNodeID"`
	// ReadOnly mounts the volume read-only.
	ReadOnly bool `json:"ReadOnly"`
	// AttachmentMode is "file-system" or "block-device".
	AttachmentMode string `json:"AttachmentMode"`
	// AccessMode is the CSI access mode, e.g. "single-node-writer".
	AccessMode string `json:"AccessMode"`
	// MountInfo is where the volume was last mounted, or nil before the
	// first mount.
	MountInfo *CSIMountInfo `json:"MountInfo"`
}

// Copy returns a deep copy.
func (s *CSIVolumeStub) Copy() *CSIVolumeStub {
	if s == nil {
		return nil
	}
	out := *s
	if s.MountInfo != nil {
		mi := *s.MountInfo
		out.MountInfo = &mi
	}
	return &out
}

// CSIMountInfo is a mount point as HOOKRES-2 records it.
type CSIMountInfo struct {
	// Source is the host path of the mount (or of the device node).
	Source string `json:"Source"`
	// IsDevice is true for a block device rather than a file system mount.
	IsDevice bool `json:"IsDevice"`
}
