package bad

import (
	"math/rand"
	r2 "math/rand/v2"
	"os"
	tm "time"

	metrics "github.com/hashicorp/go-metrics"
)

func f(m *metrics.Metrics) {
	_ = tm.Now()
	tm.Sleep(1)
	_ = rand.Intn(3)
	_ = r2.IntN(3)
	_ = os.Getenv("X")
	_ = tm.Local
	m.MeasureSince([]string{"k"}, tm.Time{})
	metrics.MeasureSince([]string{"k"}, tm.Time{})
}
