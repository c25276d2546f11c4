"""Deliberately broken engine builds (core/memprof/mutant.h) and tests that must catch them."""

# name -> MPO_MEMPROF_MUTANT value (the Mutant enum in mutant.h).
MEMPROF_MUTANTS = {
    "transfer_keeps_source": 1,
    "dealloc_while_alive": 2,
    "orphan_lost": 3,
    "callback_after_discard": 4,
    "skip_user_data_roots": 5,
    "skip_config_roots": 6,
    "young_user_data_not_noted": 7,
}

def mutant_caught_test(name, binary, gtest_filter, patterns, rc_params = "", size = "small"):
    """An sh_test that passes when `binary` (built on a mutant engine) FAILS and its
    output matches every ERE in `patterns` (a readable report, not a crash)."""
    native.sh_test(
        name = name,
        size = size,
        srcs = ["//core/memprof:expect_mutant_caught.sh"],
        # Single-quoted: Bazel splits args like a shell (patterns hold no quotes).
        args = ["$(location %s)" % binary] + ["'%s'" % a for a in [gtest_filter, rc_params] + patterns],
        data = [binary],
    )
