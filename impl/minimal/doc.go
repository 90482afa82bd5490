// Package minimal is the smallest AllocRunner that satisfies the Factory
// type (SPEC AR-3): the worked example for node simulators.
package minimal
