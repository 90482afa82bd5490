// Package apiclient is how conform's HTTP subcommands (`job run`, `alloc
// pause`) reach an agent: the official Go client
// (github.com/hashicorp/nomad/api) with Nomad's address resolution, plus
// the alloc table they print.
//
// Address resolution, first match wins:
//
//  1. the -address flag, when given;
//  2. the NOMAD_ADDR environment variable (read by api.DefaultConfig,
//     which also honours NOMAD_REGION, NOMAD_NAMESPACE and the TLS
//     variables);
//  3. http://127.0.0.1:4646, where `conform agent -dev` listens by
//     default.
package apiclient
