package client

import (
	"github.com/allocsim/allocsim/impl/allocrunner"
	"github.com/allocsim/allocsim/impl/interfaces"
)

// referenceFactory is the runner a nil ClientOptions.AllocRunnerFactory
// means (AR-3): the reference runner of impl/allocrunner.
func referenceFactory() interfaces.AllocRunnerFactory {
	return allocrunner.NewAllocRunner
}
