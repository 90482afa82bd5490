package nomadcmd

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hashicorp/nomad/api"
)

// DefaultAddress is the agent address without -address or NOMAD_ADDR.
const DefaultAddress = "http://127.0.0.1:4646"

// newClient returns the official client for address; an empty address means
// NOMAD_ADDR, else DefaultAddress (package documentation).
func newClient(address string) (*api.Client, error) {
	cfg := api.DefaultConfig()
	if address != "" {
		cfg.Address = address
	}
	c, err := api.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("building the API client for %s: %w", cfg.Address, err)
	}
	return c, nil
}

// shortIDLen is how many characters of an ID tables show without -verbose.
const shortIDLen = 8

// shortID is id's first 8 characters, or all of it when verbose.
func shortID(id string, verbose bool) string {
	if verbose || len(id) <= shortIDLen {
		return id
	}
	return id[:shortIDLen]
}

// writeAllocTable writes one row per alloc stub under a header: ID, node
// ID, job, task group, desired and client status. IDs are short unless
// verbose. Rows keep the order given.
func writeAllocTable(w io.Writer, stubs []*api.AllocationListStub, verbose bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNode ID\tJob ID\tTask Group\tDesired\tStatus")
	for _, s := range stubs {
		if s == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n",
			shortID(s.ID, verbose), shortID(s.NodeID, verbose), s.JobID, s.TaskGroup, s.DesiredStatus, s.ClientStatus)
	}
	return tw.Flush()
}
