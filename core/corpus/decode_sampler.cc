// Sampler cases: the draws of OCaml 5's memprof PRNG for a request, as the sampler view
// of schema 2 (SCHEMA.md) or one draw per line.
#include <new>
#include <optional>

#include "core/base/json_writer.h"
#include "core/base/view_json.h"
#include "core/corpus/decode.h"
#include "core/corpus/json_limits.h"
#include "core/sampler/geometric_listing.h"
#include "core/sampler/sampler.h"
#include "core/sampler/sampling_rate.h"

namespace mpo::corpus {
namespace {

using nlohmann::json;

// Bounds that keep a hostile request from costing more than seconds: draws listed, and
// rand_binom's O(len * lambda) work.
constexpr std::uint64_t kMaxDraws = 1000000;
constexpr double kMaxBinomialWork = 1e8;
// Flush the stream in chunks this large, so memory does not grow with the draws.
constexpr std::size_t kChunk = std::size_t{1} << 16;

Status Bad(ErrorCode code, const std::string& member, const std::string& what) {
  return Status(code, what).WithField("sampler request" + (member.empty() ? "" : ": " + member));
}

// The request's members as far as they can be read; a member that cannot is absent here
// (and null in the header).
struct Request {  // NOLINT(bugprone-exception-escape): json members may throw on OOM only
  std::optional<std::string> mode;  // "geometric" or "binomial"
  std::optional<std::uint64_t> seed;
  std::optional<double> lambda;
  json doc;
};

Request ReadMembers(json doc) {
  Request r;
  if (!doc.is_object()) return r;
  const auto mode = doc.find("mode");
  if (mode != doc.end() && mode->is_string() && (*mode == "geometric" || *mode == "binomial"))
    r.mode = mode->get<std::string>();
  const auto seed = doc.find("seed");
  if (seed != doc.end() && seed->is_number_unsigned()) r.seed = seed->get<std::uint64_t>();
  const auto lambda = doc.find("lambda");
  if (lambda != doc.end() && lambda->is_number()) r.lambda = lambda->get<double>();
  r.doc = std::move(doc);
  return r;
}

// Every problem of the request, before any draw: the first one found.
Status Validate(const Request& r) {
  if (!r.doc.is_object())
    return Bad(ErrorCode::kCorrupt, "",
               "expected {\"seed\":N,\"lambda\":L,\"mode\":\"geometric\"|\"binomial\",...}");
  if (!r.seed) return Bad(ErrorCode::kCorrupt, "seed", "must be an unsigned integer");
  if (!r.lambda) return Bad(ErrorCode::kCorrupt, "lambda", "must be a number");
  if (!sampler::SamplingRate::FromLambda(*r.lambda).ok())
    return Bad(ErrorCode::kOutOfRange, "lambda", "must be in [0, 1]");
  if (!r.mode) return Bad(ErrorCode::kCorrupt, "mode", "must be \"geometric\" or \"binomial\"");
  if (*r.mode == "geometric") {
    const auto count = r.doc.find("count");
    if (count == r.doc.end() || !count->is_number_unsigned() ||
        count->get<std::uint64_t>() > kMaxDraws)
      return Bad(ErrorCode::kOutOfRange, "count", "must be an integer in [0, 1000000]");
    return Status::Ok();
  }
  const auto lengths = r.doc.find("lengths");
  if (lengths == r.doc.end() || !lengths->is_array() || lengths->size() > kMaxDraws)
    return Bad(ErrorCode::kCorrupt, "lengths", "must be an array of at most 1000000 lengths");
  double work = 0;
  for (const json& len : *lengths) {
    if (!len.is_number_unsigned())
      return Bad(ErrorCode::kCorrupt, "lengths", "must hold unsigned integers");
    // At lambda = 1 every word is sampled without a draw per word.
    if (*r.lambda < 1) work += static_cast<double>(len.get<std::uint64_t>()) * *r.lambda;
  }
  if (work > kMaxBinomialWork)
    return Bad(ErrorCode::kOutOfRange, "lengths", "more than 1e8 expected samples in total");
  return Status::Ok();
}

// Writes records (or text lines) in chunks and counts them.
class DrawWriter {
 public:
  DrawWriter(DecodeForm form, TextSink& out) : form_(form), out_(out) {}
  void Header(const Request& r) {
    if (form_ != DecodeForm::kJsonLines) return;
    JsonWriter w(buf_);
    view_json::BeginHeader(w, "sampler");
    w.Key("mode");
    if (r.mode) {
      w.String(*r.mode);
    } else {
      w.Null();
    }
    w.Key("seed");
    if (r.seed) {
      w.Uint(*r.seed);
    } else {
      w.Null();
    }
    w.Key("lambda");
    if (r.lambda) {
      w.Double(*r.lambda);
    } else {
      w.Null();
    }
    w.EndObject();
    w.EndLine();
  }
  void Draw(std::uint64_t v) {
    JsonWriter w(buf_);
    if (form_ == DecodeForm::kJsonLines) {
      w.BeginObject();
      w.Key("kind");
      w.Name("draw");
      w.Key("value");
      w.Uint(v);
      w.EndObject();
    } else {
      w.Uint(v);
    }
    w.EndLine();
    ++records_;
    if (buf_.size() >= kChunk) Flush();
  }
  Status End(const Status& s) {
    if (form_ == DecodeForm::kJsonLines) {
      JsonWriter w(buf_);
      view_json::WriteEndLine(w, s, records_);
    } else if (!s.ok()) {
      buf_ += "error: " + s.ToString() + "\n";
    }
    Flush();
    return s;
  }

 private:
  void Flush() {
    out_.Write(buf_);
    buf_.clear();
  }
  DecodeForm form_;
  TextSink& out_;
  std::string buf_;
  std::uint64_t records_ = 0;
};

Status Draws(const Request& r, DrawWriter& w) {
  const auto rate = sampler::SamplingRate::FromLambda(*r.lambda);
  if (!rate.ok()) return rate.status();
  if (*r.mode == "geometric") {
    // From a fresh seed, index 0 first: as `sample geometric` and the vector files list them.
    sampler::GeometricListing listing(*r.seed, *rate, sampler::GeometricView::kFromSeed);
    const std::uint64_t n = r.doc.find("count")->get<std::uint64_t>();
    for (std::uint64_t i = 0; i < n; ++i) w.Draw(listing.Next());
    return Status::Ok();
  }
  // One binomial draw per block, the surplus carried from block to block.
  sampler::Sampler s(*r.seed);
  s.Start(*rate);
  for (const json& len : *r.doc.find("lengths")) {
    auto v = s.CheckedBinomial(len.get<std::uint64_t>());
    // A length past rand_binom's domain is a bad request, not a bad argument of ours.
    if (!v.ok()) return Bad(ErrorCode::kOutOfRange, "lengths", std::string(v.status().message()));
    w.Draw(*v);
  }
  return Status::Ok();
}

}  // namespace

Status DecodeSampler(std::string_view request_json, DecodeForm form, TextSink& out) {
  DrawWriter w(form, out);
  // The DOM is bounded too: a valid request holds at most a million lengths.
  auto doc = ParseJsonBounded(request_json, kMaxJsonDepth, 2 * kMaxDraws);
  if (!doc.ok()) {
    w.Header(Request{});
    return w.End(Status(doc.status()).WithField("sampler request"));
  }
  const Request r = ReadMembers(std::move(*doc));
  w.Header(r);
  Status s = Validate(r);
  // The request's values are read through nlohmann, which throws only when memory runs out.
  try {
    if (s.ok()) s = Draws(r, w);
  } catch (const std::bad_alloc&) {
    s = Status(ErrorCode::kResourceExhausted, "out of memory").WithField("sampler request");
  }
  return w.End(s);
}

}  // namespace mpo::corpus
