"""Build rule for Relacy model tests."""

load("@rules_cc//cc:defs.bzl", "cc_test")

def relacy_model_test(name, srcs, deps = [], size = "small", search_size = "medium", **kwargs):
    """A Relacy model: runs the correct protocol and its mutants, fails on any surprise.

    Declares `<name>` (random scheduler; MPO_MODEL_ITERATIONS raises its iteration
    count, see ci/models_deep.sh) and `<name>_search`, the same binary with `--search`:
    the model's smallest configurations under exhaustive or context-bounded search.

    Relacy replaces the global operator new/delete but not their sized variants, so sized
    deallocation must be off or libstdc++'s sized delete frees Relacy's memory. That holds
    for library code that frees what the model allocated too: a model lists such sources
    in its own `srcs` (e.g. //core/memprof:entries.cc) and depends on their headers only,
    so that only model targets carry the option. Relacy is not sanitizer-clean: the
    target is tagged nosan.
    """
    cc_test(
        name = name,
        srcs = srcs,
        copts = ["-fno-sized-deallocation"],
        size = size,
        tags = ["nosan"],
        deps = deps + [
            "//models:model_runner",
            "//core/sync:relacy_platform",
        ],
        **kwargs
    )
    native.sh_test(
        name = name + "_search",
        size = search_size,
        srcs = ["//models:run_search.sh"],
        args = ["$(location :%s)" % name],
        data = [":" + name],
        tags = ["nosan"],
    )
