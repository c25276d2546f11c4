"""The external repositories memprof-oracle's targets need, for its own WORKSPACE and for
any workspace that depends on it.

Everything comes from Debian packages (absolute paths under /usr, installed by
ci/install_deps.sh) or from this repository: nothing is downloaded. Usage, in a
consumer's WORKSPACE:

    local_repository(name = "memprof_oracle", path = "path/to/memprof-oracle")
    load("@memprof_oracle//:deps.bzl", "memprof_oracle_dependencies")
    memprof_oracle_dependencies()

Call it before anything that defines rules_cc, rules_java or remote_coverage_tools:
Bazel 4.2.3 appends a WORKSPACE suffix that would otherwise fetch them from the network.
A repository the WORKSPACE defined earlier is left as it is (the caller's choice wins).
"""

def _in_tree_repository_impl(rctx):
    # The directory lives in this repository's third_party/, wherever the repository was
    # checked out: locate it through a file of ours rather than a path relative to the
    # consumer's workspace.
    root = rctx.path(rctx.attr.anchor).dirname
    src = root.get_child("third_party").get_child(rctx.attr.dir)
    for entry in src.readdir():
        rctx.symlink(entry, entry.basename)

# A repository made of a directory under third_party/ (those directories are separate
# workspaces, listed in .bazelignore, so they cannot be addressed by label).
_in_tree_repository = repository_rule(
    implementation = _in_tree_repository_impl,
    attrs = {
        "anchor": attr.label(mandatory = True, allow_single_file = True),
        "dir": attr.string(mandatory = True),
    },
)

def _maybe(rule, name, **kwargs):
    if not native.existing_rule(name):
        rule(name = name, **kwargs)

def memprof_oracle_dependencies():
    """Defines rules_cc, rules_java, remote_coverage_tools, system_libs, relacy and
    googletest_src, each unless already defined."""

    # rules_cc: a stand-in forwarding to the native rules (Debian's bazel-rules-cc needs a
    # newer Bazel); it also gives every C++ target -std=c++20 (see its cc/defs.bzl).
    _maybe(
        _in_tree_repository,
        name = "rules_cc",
        anchor = Label("//:deps.bzl"),
        dir = "rules_cc",
    )

    # Parsing @bazel_tools//tools/jdk (toolchain resolution, even for C++) needs it.
    _maybe(
        native.local_repository,
        name = "rules_java",
        path = "/usr/share/bazel/rules/java",
    )

    # Every test depends on the coverage tools; coverage itself is not supported offline.
    _maybe(
        _in_tree_repository,
        name = "remote_coverage_tools",
        anchor = Label("//:deps.bzl"),
        dir = "remote_coverage_tools",
    )

    _maybe(
        native.new_local_repository,
        name = "system_libs",
        build_file = str(Label("//third_party:system_libs.BUILD")),
        path = "/usr/lib/x86_64-linux-gnu",
    )

    _maybe(
        native.new_local_repository,
        name = "relacy",
        build_file = str(Label("//third_party:relacy.BUILD")),
        path = "/usr/include",
    )

    _maybe(
        native.new_local_repository,
        name = "googletest_src",
        build_file = str(Label("//third_party:googletest_src.BUILD")),
        path = "/usr/src/googletest",
    )
