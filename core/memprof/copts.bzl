"""Compiler options for the memprof engine, simulator and harness."""

# Under libFuzzer, optimise: at -O0 every libstdc++ accessor instantiated here is an
# instrumented function of its own, which made ~80% of the fuzzer's coverage edges and
# drowned the entropic scheduler in features (see core/memprof/README.md).
# Also, libstdc++ code gets no coverage edges (coverage_ignorelist.inc; targets using
# these copts depend on //core/memprof:coverage_ignorelist so the file is an input).
MEMPROF_COPTS = select({
    "//fuzz:libfuzzer": [
        "-O2",
        "-fsanitize-coverage-ignorelist=core/memprof/coverage_ignorelist.inc",
    ],
    "//conditions:default": [],
})
