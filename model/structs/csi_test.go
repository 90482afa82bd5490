package structs

import (
	"testing"

	"github.com/shoenig/test/must"
)

func TestCSIAliases(t *testing.T) {
	tg := &TaskGroup{Volumes: map[string]*VolumeRequest{
		"b": {Type: VolumeTypeCSI}, "a": {Type: VolumeTypeCSI}, "h": {Type: "host"}, "nil": nil,
	}}
	task := &Task{VolumeMounts: []*VolumeMount{
		{Volume: "b"}, nil, {Volume: "h"}, {Volume: "a"}, {Volume: "b"}, {Volume: "unknown"},
	}}
	must.Eq(t, []string{"a", "b"}, tg.CSIAliases())
	must.Eq(t, []string{"a", "b"}, tg.TaskCSIAliases(task))
	must.SliceEmpty(t, tg.TaskCSIAliases(nil))
	var none *TaskGroup
	must.SliceEmpty(t, none.TaskCSIAliases(task))
	must.SliceEmpty(t, none.CSIAliases())
}
