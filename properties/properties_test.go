package properties_test

import (
	"testing"

	"github.com/allocsim/allocsim/impl/reference"
	"github.com/allocsim/allocsim/properties"
)

func TestReferenceConforms(t *testing.T) {
	properties.Run(t, reference.Factory, properties.WithPackage("./properties"))
}
