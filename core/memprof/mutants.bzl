"""A test that every engine mutant (core/memprof/mutants.h) is caught by a test binary."""

def mutants_caught_test(name, binary, gtest_filter, patterns, rc_params = "", size = "small"):
    """An sh_test that runs `binary` once per mutant (MPO_MEMPROF_FAULTS=<name>) and
    passes when every run FAILS with output matching every ERE in `patterns` (a
    readable report, not a crash)."""
    native.sh_test(
        name = name,
        size = size,
        srcs = ["//core/memprof:expect_mutants_caught.sh"],
        # Single-quoted: Bazel splits args like a shell (patterns hold no quotes).
        args = [
            "$(location //core/memprof:mutant_names)",
            "$(location %s)" % binary,
        ] + ["'%s'" % a for a in [gtest_filter, rc_params] + patterns],
        data = [binary, "//core/memprof:mutant_names"],
    )
