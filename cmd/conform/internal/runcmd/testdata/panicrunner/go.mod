module example.com/panicrunner

go 1.26.0

require github.com/allocsim/allocsim v0.0.0

require (
	github.com/anishathalye/porcupine v1.3.1 // indirect
	github.com/benbjohnson/clock v1.3.5 // indirect
	github.com/hashicorp/cronexpr v1.1.3 // indirect
	github.com/hashicorp/go-immutable-radix v1.3.1 // indirect
	github.com/hashicorp/go-metrics v0.7.0 // indirect
	github.com/hashicorp/golang-lru v0.5.0 // indirect
	go.etcd.io/bbolt v1.4.3 // indirect
	golang.org/x/sys v0.49.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)

replace github.com/allocsim/allocsim => ../../../../../..
