package hookresources

import "github.com/allocsim/allocsim/properties/internal/prop"

// Properties lists the package's properties in suite order.
func Properties() []prop.Property {
	return []prop.Property{noNilRead, linearizable}
}
