// Package apiconv converts between the official Nomad API types
// (github.com/hashicorp/nomad/api, MPL-2.0) and allocsim's domain types
// (model/structs), in both directions, and is the only place that does.
//
// Directions are named from the domain's side: XToAPI turns a domain value
// into its API form, XFromAPI turns an API value into a domain one. Both
// deep-copy: no result shares memory with its argument.
//
// The API types lack two things the agent serves (SPEC API-5, DATA-6), so
// the package adds thin wire types that embed the API type and add or
// shadow fields; their JSON is the API type's JSON plus those fields:
//
//  1. TaskState = api.TaskState + Paused (PAUSE-1, our addition to Nomad);
//  2. Allocation = api.Allocation with TaskStates of that TaskState;
//  3. AllocationListStub = api.AllocationListStub with TaskStates of that
//     TaskState, plus AllocModifyIndex and NetworkStatus (API-5: stubs carry
//     every DATA-5 field but Job).
//
// A client that decodes into the plain API types (the official Go client)
// simply ignores the extra fields.
//
// Normalisation where the two sides differ (documented per function): an
// absent pointer and a zero value are one domain value; an absent task
// group Count is 1 (Nomad's default); a zero Task.KillTimeout is absent.
package apiconv
