"""Forwards each rules_cc macro to the native rule built into Bazel 4.2.3.

cc_binary, cc_library and cc_test also put -std=c++20 first in the target's copts:
memprof-oracle's headers need C++20, and Bazel 4.2.3's toolchain passes -std=c++0x.
Carried by each target, it reaches a workspace that depends on this one (its .bazelrc,
and so a --cxxopt, is not read there) and that workspace's own targets declared through
these macros. A later -std in a target's copts still wins. Targets with C sources are left
alone (a C compiler rejects C++ standards); so are srcs given as a select().
"""

_CXX_STD = ["-std=c++20"]

def _with_cxx_std(attrs):
    srcs = attrs.get("srcs", [])
    if type(srcs) != "list" or [s for s in srcs if type(s) == "string" and s.endswith(".c")]:
        return attrs
    attrs["copts"] = _CXX_STD + attrs.get("copts", [])
    return attrs

def cc_binary(**attrs):
    native.cc_binary(**_with_cxx_std(attrs))

def cc_test(**attrs):
    native.cc_test(**_with_cxx_std(attrs))

def cc_library(**attrs):
    native.cc_library(**_with_cxx_std(attrs))

def cc_import(**attrs):
    native.cc_import(**attrs)

def cc_proto_library(**attrs):
    native.cc_proto_library(**attrs)

def fdo_prefetch_hints(**attrs):
    native.fdo_prefetch_hints(**attrs)

def fdo_profile(**attrs):
    native.fdo_profile(**attrs)

def cc_toolchain(**attrs):
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    native.cc_toolchain_suite(**attrs)

def objc_library(**attrs):
    native.objc_library(**attrs)

def objc_import(**attrs):
    native.objc_import(**attrs)
