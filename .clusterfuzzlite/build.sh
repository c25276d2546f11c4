#!/bin/bash -eu
# ClusterFuzzLite entry point: the project's own Bazel-free fuzz build (it reads $CXX,
# $CXXFLAGS, $LIB_FUZZING_ENGINE, $OUT and $WORK from the builder's environment).
"$SRC/memprof-oracle/fuzz/oss-fuzz/build.sh"
