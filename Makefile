# allocsim: the two commands are `make test` (everything CI checks) and
# `make conform`, the main job (the suite against the built-in runners).
GO           ?= go
STATICCHECK  ?= $(shell $(GO) env GOPATH)/bin/staticcheck
STATICCHECK_VERSION := v0.8.2
FUZZTIME     ?= 30s
BENCHTIME    ?= 1s
MAXFILESIZE  ?= 1048576
PKGS         := ./...

.PHONY: all test test-clock race fuzz bench bench-report study lint staticcheck detlint sizelint conform report tools mutants

all: lint test

## test: every test, including the schedule oracle property and fuzz seed corpora.
test: test-clock
	$(GO) test -count=1 $(PKGS)

## test-clock: the clock fork's own tests (third_party/clock, a module of
## its own), then the simulator's clock and replay tests again on upstream's
## clock (replay, parked-against-ticking, DET-1 real clock), with a go.mod
## without the fork's replace (DESIGN-CLOCK.md).
test-clock:
	cd third_party/clock && $(GO) test -count=1 ./...
	@tmp=$$(mktemp -d) && sed '/^replace github.com\/benbjohnson\/clock /d' go.mod > $$tmp/go.mod && cp go.sum $$tmp/go.sum && \
	  ALLOCSIM_UPSTREAM_CLOCK=1 GOFLAGS=-mod=mod $(GO) test -count=1 -short -modfile=$$tmp/go.mod \
	    -run '^(TestWhichQueue|TestQueueNext|TestQueueSuspend|TestReplay|TestParkedSyncMatchesTicking|TestTimePackageInStep|TestDET1ForeignClock)$$' ./sim/vclock ./sim; \
	  rc=$$?; rm -rf $$tmp; exit $$rc

## race: every test under the race detector.
race:
	$(GO) test -count=1 -race $(PKGS)

## replay-sweep: DET-4 under parallelism, not part of make test:
## TestReplay (two runs of each seed, reference and minimal runners) over
## REPLAY_SEEDS generated seeds (default 2000) at each GOMAXPROCS of
## REPLAY_CPUS (go test -cpu; default 1 2 4), every trace written to
## REPLAY_DIR/cpu<n> (default a temporary directory, removed when all
## matched), then TestReplayDirs: every run of a seed byte-identical to its
## first within a setting, and every trace to the same trace at the first
## setting. About 4 minutes on 2 cores.
REPLAY_SEEDS ?= 2000
REPLAY_CPUS  ?= 1 2 4
REPLAY_DIR   ?=
.PHONY: replay-sweep
replay-sweep:
	@dir="$(REPLAY_DIR)"; if [ -z "$$dir" ]; then dir=$$(mktemp -d); tmp=1; else tmp=0; fi; \
	  rc=0; dirs=; start=$$(date +%s); \
	  for n in $(REPLAY_CPUS); do \
	    rm -rf "$$dir/cpu$$n" && mkdir -p "$$dir/cpu$$n" || exit 1; \
	    dirs="$$dirs$${dirs:+,}$$dir/cpu$$n"; t0=$$(date +%s); \
	    echo "== GOMAXPROCS=$$n: TestReplay -seeds=$(REPLAY_SEEDS), traces in $$dir/cpu$$n"; \
	    $(GO) test -count=1 -timeout 0 -cpu $$n ./sim -run '^TestReplay$$' -seeds=$(REPLAY_SEEDS) -trace.dir="$$dir/cpu$$n" || rc=1; \
	    echo "   GOMAXPROCS=$$n took $$(( $$(date +%s) - t0 ))s"; \
	  done; \
	  echo "== every trace compared within and across GOMAXPROCS $(REPLAY_CPUS)"; \
	  $(GO) test -count=1 -v ./sim -run '^TestReplayDirs$$' -replay.dirs="$$dirs" || rc=1; \
	  echo "== replay-sweep: $(REPLAY_SEEDS) seeds x GOMAXPROCS $(REPLAY_CPUS) in $$(( $$(date +%s) - start ))s"; \
	  if [ $$rc = 0 ] && [ $$tmp = 1 ]; then rm -rf "$$dir"; else echo "   traces kept in $$dir"; fi; \
	  exit $$rc

## mutants: how soon the conformance suite catches each mutant, into
## reports/mutants.md (7 base seeds per mutant and property).
mutants:
	$(GO) test -count=1 -timeout 60m ./properties -run '^TestMutantReport$$' -mutants.report=$(CURDIR)/reports/mutants.md -v

## fuzz: every fuzz target for FUZZTIME each (default 30s).
fuzz:
	@set -e; for pkg in $$($(GO) list $(PKGS)); do \
	  for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$target"; \
	    $(GO) test -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

## bench: every benchmark, once.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)

## bench-report: the simulator's benchmarks, each run in its own process
## (wall, CPU, allocated bytes, peak RSS, ratios to Floor, the issue-13
## targets), into reports/bench/ (README.md and a raw
## <date>-<commit>.txt), with benchstat against the previous run. Five
## runs of each, medians in the table: one run's wall time moves by a
## fifth on a shared VM. Best on an idle machine; BENCH_COUNT=1 for a
## quick look.
BENCH_COUNT ?= 5
bench-report:
	$(GO) run ./internal/benchreport -out reports/bench -count $(BENCH_COUNT)

## study: the allocation-sync traffic study (reference sync against
## sync-no-priority) into reports/study-sync.md and reports/study-sync/.
study:
	$(GO) run ./cmd/conform study sync --out reports/study-sync.md

## lint: gofmt, go vet, staticcheck (pinned), the determinism rule (DET-1)
## and no tracked file over MAXFILESIZE bytes (default 1 MiB).
lint: detlint sizelint staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	cd third_party/clock && $(GO) vet ./...

staticcheck: tools
	$(STATICCHECK) $(PKGS)
	cd third_party/clock && $(STATICCHECK) ./...

detlint:
	$(GO) run ./internal/detlint impl sim

sizelint:
	$(GO) run ./internal/sizelint -max $(MAXFILESIZE) .

tools:
	@[ -x $(STATICCHECK) ] && $(STATICCHECK) -version | grep -q $(STATICCHECK_VERSION:v%=%) || \
	  $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

## conform: the main job: the conformance suite against the built-in
## runners (reference and minimal expected to conform, every mutant expected
## to fail the rules it breaks), the matrix printed, reports (Markdown,
## HTML with timelines, JUnit, JSON) in reports/latest/.
conform:
	$(GO) run ./cmd/conform run --runner all --report reports/latest

## report: make conform, then reports/CONFORMANCE.md (and the results it is
## rendered from, reports/conformance.json) regenerated from its results.
report: conform
	$(GO) test -count=1 ./cmd/conform/internal/runners -run '^TestConformanceReport$$' -conformance.update=$(CURDIR)/reports/latest/report.json

## mutation: mutation testing of the reference runner judged by the
## conformance suite alone (internal/mutation; not part of make test or
## CI): MUTATION_SAMPLE mutants (default 300; 0 for all of them) drawn with
## MUTATION_SEED from impl/allocrunner, taskrunner, client, hookstats and
## hookres, each built with go test -overlay and run through the suite's
## TestReferenceConforms and TestMinimalConformsToClientCommunication at
## MUTATION_CHECKS scenarios per property (0: the suite's default), into
## reports/mutation.md. About an hour for 300 on 2 cores. Verdicts are kept
## in reports/latest/mutation.json as they come: an interrupted run goes on
## with MUTATION_FLAGS='-resume reports/latest/mutation.json', and after the
## suite changed MUTATION_FLAGS='-resume reports/latest/mutation.json
## -rejudge' judges its survivors again. A survivor whose change touches
## synchronization is judged again under -race (-race=false: not).
MUTATION_SAMPLE ?= 300
MUTATION_SEED   ?= 1
MUTATION_CHECKS ?= 0
MUTATION_FLAGS  ?=
.PHONY: mutation
mutation:
	$(GO) run ./internal/mutation -sample $(MUTATION_SAMPLE) -seed $(MUTATION_SEED) -checks $(MUTATION_CHECKS) -report reports/mutation.md $(MUTATION_FLAGS)
