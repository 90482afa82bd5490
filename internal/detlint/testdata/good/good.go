package good

import (
	"math/rand/v2"
	"time"
)

type clk struct{}

func (clk) Now() time.Time { return time.Time{} }

func f(r *rand.Rand) time.Duration {
	time := clk{} // a local called time is not the package
	_ = time.Now()
	_ = rand.New(rand.NewPCG(1, 2))
	return 5 * 1e9
}
