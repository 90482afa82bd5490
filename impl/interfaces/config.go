package interfaces

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/allocsim/allocsim/model/structs"
	"github.com/allocsim/allocsim/plugins/drivers"
	"github.com/benbjohnson/clock"
	metrics "github.com/hashicorp/go-metrics"
)

// Config is everything an alloc runner is given (AR-2). All of it is
// injected: a runner reads time only from Clock and randomness only from
// Rand (DET-1).
type Config struct {
	// Alloc is the server's alloc to run. Its Job is shared and read
	// only (nobody changes a job once received): a runner may keep it
	// without a copy, and must not change it (as AllocRunner.Update's).
	Alloc *structs.Allocation
	// Logger; nil means discard.
	Logger *slog.Logger
	// Clock is the only source of time.
	Clock clock.Clock
	// Rand is this runner's own seeded source (restart jitter); not shared.
	Rand *rand.Rand
	// ClientConfig is the node's configuration.
	ClientConfig *ClientConfig
	// BaseLabels are the client's hook metric labels (TELEM-2), built once.
	BaseLabels []metrics.Label
	// Metrics is the go-metrics instance hook telemetry goes to (TELEM-1).
	Metrics *metrics.Metrics
	// StateDB persists the runner's state (STATE-1).
	StateDB StateDB
	// StateUpdater receives every computed client alloc (SYNC-1).
	StateUpdater StateUpdater
	// DriverManager dispenses task drivers.
	DriverManager drivers.DriverManager
	// CSIManager mounts CSI volumes (HOOKRES-2).
	CSIManager CSIManager
	// AllocDirFactory builds the alloc dir.
	AllocDirFactory AllocDirFactory
	// PrevAllocWatcher waits for a previous alloc; nil means none.
	PrevAllocWatcher PrevAllocWatcher
	// PrevAllocMigrator migrates a previous alloc's data; nil means none.
	PrevAllocMigrator PrevAllocMigrator
	// ServersContactedCh closes after the client's first successful alloc
	// pull (SYNC-3, STATE-4).
	ServersContactedCh <-chan struct{}
	// RPCClient reaches the servers.
	RPCClient RPCClient
}

// ClientConfig is the node configuration a runner sees (AR-2).
type ClientConfig struct {
	NodeID     string
	Datacenter string
	NodeClass  string
	NodePool   string
	Region     string
	// MaxKillTimeout caps task kill timeouts; zero means 30s (DATA-4).
	MaxKillTimeout time.Duration
	// DisableAllocationHookMetrics turns hook telemetry off (TELEM-5).
	DisableAllocationHookMetrics bool
	// LocalZone is the zone of schedules with an empty or "Local" timezone
	// (SCHED-4); nil means UTC.
	LocalZone *time.Location
	// ScheduleProfile is "ent" (default) or "ce" (SCOPE-2).
	ScheduleProfile string
}

// StateUpdater is the client side of SYNC-1.
type StateUpdater interface {
	// AllocStateUpdated buffers a computed client alloc; it never blocks.
	// The alloc stays the runner's: the updater copies what it keeps and
	// changes nothing of it.
	AllocStateUpdated(alloc *structs.Allocation)
	// PutAllocation persists an alloc.
	PutAllocation(alloc *structs.Allocation) error
}

// PrevAllocWatcher waits for a previous allocation to finish (AR-4).
type PrevAllocWatcher interface {
	Wait(ctx context.Context) error
	IsWaiting() bool
}

// PrevAllocMigrator moves a previous allocation's data (AR-4).
type PrevAllocMigrator interface {
	PrevAllocWatcher
	IsMigrating() bool
	Migrate(ctx context.Context, dest AllocDir) error
}

// RPCClient calls a server method.
type RPCClient interface {
	RPC(method string, args any, reply any) error
}
