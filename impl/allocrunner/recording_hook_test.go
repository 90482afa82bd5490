package allocrunner

import (
	"context"
	"errors"

	"github.com/allocsim/allocsim/impl/interfaces"
	"github.com/allocsim/allocsim/model/structs"
)

// recordingHook implements every alloc hook kind and logs each call.
type recordingHook struct {
	log        *callLog
	updateErr  error
	postrunErr error
	destroyErr error
}

var (
	_ interfaces.RunnerPrerunHook  = (*recordingHook)(nil)
	_ interfaces.RunnerPostrunHook = (*recordingHook)(nil)
	_ interfaces.RunnerDestroyHook = (*recordingHook)(nil)
	_ interfaces.RunnerUpdateHook  = (*recordingHook)(nil)
	_ interfaces.RunnerPreKillHook = (*recordingHook)(nil)
	_ interfaces.ShutdownHook      = (*recordingHook)(nil)
)

func (r *recordingHook) Name() string { return "recorder" }
func (r *recordingHook) Prerun(context.Context) error {
	r.log.add("prerun")
	return nil
}
func (r *recordingHook) Postrun() error {
	r.log.add("postrun")
	return r.postrunErr
}
func (r *recordingHook) Destroy() error {
	r.log.add("destroy")
	return r.destroyErr
}
func (r *recordingHook) Update(a *structs.Allocation) error {
	r.log.add("update:" + a.DesiredStatus)
	return r.updateErr
}
func (r *recordingHook) PreKill()  { r.log.add("prekill") }
func (r *recordingHook) Shutdown() { r.log.add("shutdown") }

var errHook = errors.New("hook failed")
