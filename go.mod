module github.com/allocsim/allocsim

go 1.25.0

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	github.com/benbjohnson/clock v1.3.5 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hashicorp/cronexpr v1.1.3 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-metrics v0.7.0 // indirect
	github.com/hashicorp/golang-lru v0.5.0 // indirect
	github.com/rogpeppe/go-internal v1.16.0 // indirect
	github.com/shoenig/test v1.13.2 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
