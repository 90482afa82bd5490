// Package apiscenario is the command vocabulary shared by the API
// scenario files of sim/ (TestAPIScenarios) and of the dev agent
// (cmd/conform/internal/devagent, TestDevAgentScenarios): walking the
// files and dispatching their commands (Walk, Commands), reading a
// directive's arguments, parsing a register directive's job (ParseJob)
// and a run-until's condition (ParseUntil), labelling IDs, and printing
// API errors, alloc lists, task events and metrics. Each suite keeps its
// own environment and handlers; what they parse and print the same way
// is here, once.
//
// The output conventions:
//
//  1. IDs never print: an alloc's ID prints as its name in angle brackets
//     (<web.g[0]>), the node's as <node>, any other UUID as <id1>, <id2>,
//     ... in order of first appearance, but the nil UUID, which names no
//     alloc (Labels); a command argument may use these forms.
//  2. A call prints ok or its error; an API error prints as its HTTP
//     status and body (API-1), the body quoted when it has a newline or
//     tab (Result, Failure). An alloc list prints a stub a line, [] for
//     none, null for nil (StubLines); an empty pause state as "" (PauseState).
//  3. A task event prints as "<task> [<time>] <type> <display message>
//     [<detail>=<value>...]", once (EventLog); metrics as
//     "<family> <hook_name> <value>" under their common labels
//     (PromSeries).
//
// It is test support: only test files import it.
package apiscenario
