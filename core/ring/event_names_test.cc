#include "core/ring/event_names.h"

#include <gtest/gtest.h>

namespace mpo::ring {
namespace {

TEST(OcamlVersionOfFileName, TheCorpusNamingStatesTheRelease) {
  EXPECT_EQ(OcamlVersionOfFileName("every_event_type.ocaml-5.0.events"), OcamlVersion::k5_0);
  EXPECT_EQ(OcamlVersionOfFileName("/c/ring/wrap.ocaml-5.5.events"), OcamlVersion::k5_5);
  EXPECT_EQ(OcamlVersionOfFileName("dir.x/a.b.ocaml-5.2.1.events"), OcamlVersion::k5_2);
}

TEST(OcamlReleaseOfFileName, TheTextEvenOfAnUnknownRelease) {
  EXPECT_EQ(OcamlReleaseOfFileName("/c/ring/wrap.ocaml-5.5.events"), "5.5");
  EXPECT_EQ(OcamlReleaseOfFileName("x.ocaml-9.9.events"), "9.9");
  EXPECT_EQ(OcamlReleaseOfFileName("4242.events"), "");
  EXPECT_EQ(OcamlReleaseOfFileName("d.ocaml-5.3.events/4242.events"), "");
}

TEST(OcamlVersionOfFileName, OtherNamesStateNothing) {
  EXPECT_EQ(OcamlVersionOfFileName("4242.events"), std::nullopt);
  EXPECT_EQ(OcamlVersionOfFileName("x.ocaml-5.3.events.gz"), std::nullopt);
  EXPECT_EQ(OcamlVersionOfFileName("x.ocaml-4.14.events"), std::nullopt);
  EXPECT_EQ(OcamlVersionOfFileName("x.ocaml-5.9.events"), std::nullopt);
  EXPECT_EQ(OcamlVersionOfFileName("x.ocaml-.events"), std::nullopt);
  // The marker must be in the file's own name, not in a directory's.
  EXPECT_EQ(OcamlVersionOfFileName("d.ocaml-5.1/4242.events"), std::nullopt);
  EXPECT_EQ(OcamlVersionOfFileName(""), std::nullopt);
}

}  // namespace
}  // namespace mpo::ring
