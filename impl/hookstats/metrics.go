package hookstats

import (
	"errors"
	"fmt"
	"time"

	metrics "github.com/hashicorp/go-metrics"
)

var errNilSink = errors.New("hook metrics sink is nil")

// MetricsConfig returns the go-metrics configuration of TELEM-1: what
// metrics.DefaultConfig("nomad") gives, with the host name prefix, host
// name label, service label and runtime metrics off. It is written out
// rather than derived from DefaultConfig, because DefaultConfig reads the
// host name, which DET-1 forbids; HostName stays empty.
func MetricsConfig() *metrics.Config {
	return &metrics.Config{
		ServiceName:          ServiceName,
		HostName:             "",
		EnableHostname:       false,
		EnableHostnameLabel:  false,
		EnableServiceLabel:   false,
		EnableRuntimeMetrics: false, // true would start a wall-clock goroutine
		EnableTypePrefix:     false,
		TimerGranularity:     time.Millisecond,
		ProfileInterval:      time.Second,
		FilterDefault:        true,
	}
}

// NewMetrics returns a go-metrics instance on sink configured by
// MetricsConfig. It is not installed as the go-metrics global. A nil sink
// is an error.
func NewMetrics(sink metrics.MetricSink) (*metrics.Metrics, error) {
	if sink == nil {
		return nil, errNilSink
	}
	m, err := metrics.New(MetricsConfig(), sink)
	if err != nil {
		return nil, fmt.Errorf("hook metrics on sink %T: %w", sink, err)
	}
	return m, nil
}
