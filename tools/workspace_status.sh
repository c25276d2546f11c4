#!/bin/sh
# Bazel's --workspace_status_command for stamped builds (--config=release): the git
# revision of the checkout as BUILD_SCM_REVISION, which Bazel's C++ build-info header
# carries into //core/base:version (memprof-oracle --version). Prints nothing outside a
# git checkout, and the program then says "unknown".
rev=$(git rev-parse --short=12 HEAD 2>/dev/null) || exit 0
echo "BUILD_SCM_REVISION $rev"
