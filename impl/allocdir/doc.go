// Package allocdir lays out and serves an allocation's directory tree (SPEC
// §6, ADIR-1..ADIR-5): one AllocDir type implementing the contract's
// interfaces.AllocDir over two storages (the real file system, NewDisk, and
// an in-memory tree whose times come from the injected clock, NewMem), and
// the interfaces.AllocDirFactory values the alloc runner builds them with
// (DiskFactory, MemFactory). Package allocdirtest holds the conformance suite every
// implementation passes.
//
// Layout of one alloc dir (ADIR-2), under Config.Root (0711 when Build
// creates it):
//
//	<root>/<allocID>/        0755
//	  alloc/                 0777  shared dir: ShareDirPath, TaskDir.SharedAllocDir
//	    logs/ tmp/ data/     0777  logs is TaskDir.LogDir
//	  <task>/                0777  made by TaskDir.Build, never by AllocDir.Build
//	    local/               0777
//	    tmp/                 1777  (sticky)
//	    secrets/ private/    0777
//
// Every FS method (List, Stat, ReadAt, BlockUntilExists, ChangeEvents and
// the fixture Writer) takes an alloc-dir-relative path and runs these steps
// before touching storage (ADIR-4):
//
//  1. join the path to the alloc dir and clean it; a result outside the
//     alloc dir is ErrPathEscapes (an absolute path is taken relative);
//  2. resolve every symlink of the joined path with the same resolver on
//     both storages (at most 40 links); a path that does not exist passes, a
//     resolver failure (a loop) is "Failed to check if path escapes alloc
//     directory: <err>", a resolved path outside the (resolved) alloc dir is
//     ErrPathEscapes; the comparison is a case-insensitive prefix that ends
//     at a path separator, so a sibling "<allocID>x" is outside;
//  3. ReadAt only: refuse when the joined path or the resolved one has a
//     registered task's secrets or private dir as case-insensitive string
//     prefix;
//  4. operate on the resolved path.
//
// BlockUntilExists and ChangeEvents poll on the injected clock with a
// Ticker of Config.PollInterval (DefaultPollInterval) armed before the call
// returns, so a *clock.Mock advanced after the call always sees it; their
// goroutine stops when the context is cancelled.
package allocdir
