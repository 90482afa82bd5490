package properties_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties"
)

func TestReferenceConforms(t *testing.T) {
	properties.Run(t, reference.Factory, append(suiteOptions(), properties.WithPackage("./properties"))...)
}

func TestMinimalConformsToClientCommunication(t *testing.T) {
	properties.Run(t, reference.Minimal, append(suiteOptions(), properties.WithPackage("./properties"),
		properties.WithProfile(properties.ProfileClientCommunication))...)
}
