module example.com/gallery

go 1.26.0

require (
	github.com/allocsim/allocsim v0.0.0
	github.com/benbjohnson/clock v1.3.5
)

require (
	github.com/hashicorp/cronexpr v1.1.3 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-metrics v0.7.0 // indirect
	github.com/hashicorp/golang-lru v0.5.0 // indirect
	github.com/stretchr/testify v1.10.0 // indirect
)

replace github.com/allocsim/allocsim => ../..

// The heap-ordered fork of the archived clock module, as allocsim's own
// go.mod has it (DESIGN-CLOCK.md).
replace github.com/benbjohnson/clock => ../../third_party/clock
