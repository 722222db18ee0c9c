// castra-bench-server: the server's microbenchmarks, without sockets: envelope encode and
// decode, projection per viewer, one store append with its commit, and a whole command
// through MatchHost. Each reports its allocations per operation ("allocs", "alloc_bytes").
// Run: build/tools/bench/castra-bench-server (the database files go under $CASTRA_BENCH_DIR
// or the system's temporary directory); figures go to docs/performance.md.
#include <benchmark/benchmark.h>

BENCHMARK_MAIN();
