"""fuzz_target: a libFuzzer target that also builds and replays its corpus without clang."""

load("@rules_cc//cc:defs.bzl", "cc_binary")

def fuzz_target(name, srcs, deps = [], corpus = None):
    """Declares `<name>` (the fuzzer) and `<name>_corpus_test` (replays the seeds).

    Under --config=libfuzzer the binary links libFuzzer; otherwise a small main replays
    files, so the plain test run covers every seed. ci/fuzz.sh runs each target found
    by `bazel query 'attr(tags, fuzz_target, //fuzz:*)'` for a bounded time.

    Args:
      name: target name, conventionally `<thing>_fuzzer`.
      srcs: the fuzzer source, defining LLVMFuzzerTestOneInput.
      deps: libraries under test.
      corpus: the seed folder (default `corpus/<name>`).
    """
    corpus = corpus or ("corpus/" + name)
    cc_binary(
        name = name,
        srcs = srcs,
        linkopts = select({
            "//fuzz:libfuzzer": ["-fsanitize=fuzzer"],
            "//conditions:default": [],
        }),
        tags = ["fuzz_target"],
        deps = deps + select({
            "//fuzz:libfuzzer": [],
            "//conditions:default": ["//fuzz:standalone_main"],
        }),
    )
    native.sh_test(
        name = name + "_corpus_test",
        size = "small",
        srcs = ["//fuzz:run_corpus.sh"],
        args = ["$(location :%s)" % name, native.package_name() + "/" + corpus],
        data = [":" + name] + native.glob([corpus + "/**"]),
    )
