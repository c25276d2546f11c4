// The cc_library linkstamp of //core/base:version. Bazel compiles it at each binary's
// link with a build-info header included first: under --stamp that header defines
// BUILD_SCM_REVISION from the workspace status command; otherwise it is Bazel's fixed
// "0", so unstamped links do not change from one commit to the next.
#ifndef BUILD_SCM_REVISION
#define BUILD_SCM_REVISION "0"
#endif

namespace mpo::internal {
extern const char kBuildScmRevision[];
const char kBuildScmRevision[] = BUILD_SCM_REVISION;
}  // namespace mpo::internal
