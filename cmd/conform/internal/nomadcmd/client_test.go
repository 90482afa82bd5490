package nomadcmd

import (
	"bytes"
	"testing"

	"github.com/hashicorp/nomad/api"
	"github.com/shoenig/test/must"
)

func TestNewResolvesTheAddress(t *testing.T) {
	t.Setenv("NOMAD_ADDR", "")
	c, err := newClient("")
	must.NoError(t, err)
	must.Eq(t, DefaultAddress, c.Address())

	t.Setenv("NOMAD_ADDR", "http://10.1.2.3:4646")
	c, err = newClient("")
	must.NoError(t, err)
	must.Eq(t, "http://10.1.2.3:4646", c.Address())

	c, err = newClient("http://127.0.0.1:5646")
	must.NoError(t, err)
	must.Eq(t, "http://127.0.0.1:5646", c.Address(), must.Sprint("-address wins over NOMAD_ADDR"))

	_, err = newClient("http://[::1")
	must.ErrorContains(t, err, "building the API client for http://[::1")
}

func TestShortID(t *testing.T) {
	id := "8ab1c2d3-1111-2222-3333-444455556666"
	must.Eq(t, "8ab1c2d3", shortID(id, false))
	must.Eq(t, id, shortID(id, true))
	must.Eq(t, "8ab1", shortID("8ab1", false))
}

func TestWriteAllocTable(t *testing.T) {
	var b bytes.Buffer
	must.NoError(t, writeAllocTable(&b, []*api.AllocationListStub{
		{ID: "8ab1c2d3-1111", NodeID: "0f1e2d3c-0000", JobID: "web", TaskGroup: "frontend", DesiredStatus: "run", ClientStatus: "running"},
		nil,
		{ID: "12345678-9999", NodeID: "0f1e2d3c-0000", JobID: "batch-job", TaskGroup: "g", DesiredStatus: "stop", ClientStatus: "complete"},
	}, false))
	must.Eq(t, `ID        Node ID   Job ID     Task Group  Desired  Status
8ab1c2d3  0f1e2d3c  web        frontend    run      running
12345678  0f1e2d3c  batch-job  g           stop     complete
`, b.String())
}
