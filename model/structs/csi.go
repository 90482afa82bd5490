package structs

import "slices"

// CSIAliases returns the group's CSI volume aliases, sorted: what the
// csi_hook mounts and sets (HOOKRES-2).
func (tg *TaskGroup) CSIAliases() []string {
	if tg == nil {
		return nil
	}
	var out []string
	for alias, v := range tg.Volumes {
		if v != nil && v.Type == VolumeTypeCSI {
			out = append(out, alias)
		}
	}
	slices.Sort(out)
	return out
}

// TaskCSIAliases returns the group CSI aliases task mounts, sorted and
// without duplicates: what its volumes prestart checks, in order
// (HOOKRES-3). Mounts of unknown aliases and of other volume types are
// not among them.
func (tg *TaskGroup) TaskCSIAliases(task *Task) []string {
	if task == nil || tg == nil {
		return nil
	}
	var out []string
	for _, m := range task.VolumeMounts {
		if m == nil {
			continue
		}
		if v := tg.Volumes[m.Volume]; v != nil && v.Type == VolumeTypeCSI {
			out = append(out, m.Volume)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
