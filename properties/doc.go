// Package properties is the conformance suite: the spec as rapid properties
// over simulated runs, exported as Run(t, factory, opts).
package properties
