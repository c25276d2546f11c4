#include "core/corpus/decode.h"

#include <cstdio>
#include <map>
#include <new>
#include <set>
#include <vector>

#include "core/corpus/read_file.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/text_dump.h"
#include "core/memtrace/trace_reader.h"
#include "core/ring/cursor.h"
#include "core/ring/dump_format.h"
#include "core/ring/event_names.h"
#include "core/sampler/geometric_listing.h"
#include "core/sampler/sampler.h"
#include "core/sampler/sampling_rate.h"

namespace mpo::corpus {
namespace {

using nlohmann::json;

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string Hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return buf;
}

const char* EventKindName(memtrace::EventKind k) {
  switch (k) {
    case memtrace::EventKind::kAlloc: return "alloc";
    case memtrace::EventKind::kPromote: return "promote";
    case memtrace::EventKind::kCollect: return "collect";
  }
  return "?";
}

json InfoJson(const memtrace::Info& i, int version) {
  return json{{"version", version},
              {"sample_rate", i.sample_rate},
              {"word_size", i.word_size},
              {"executable_name", i.executable_name},
              {"host_name", i.host_name},
              {"ocaml_runtime_params", i.ocaml_runtime_params},
              {"pid", i.pid},
              {"initial_domain", i.initial_domain},
              {"start_time", i.start_time},
              {"context", i.context ? json(*i.context) : json(nullptr)}};
}

std::string OcamlVersionFromPath(std::string_view path) {
  // NAME.ocaml-5.N.events
  const std::string_view tail = ".events";
  std::string_view stem = path.substr(0, path.size() - tail.size());
  const auto at = stem.rfind(".ocaml-");
  if (at == std::string_view::npos) return "";
  return std::string(stem.substr(at + 7));
}

// Collects ring events as JSON objects in delivery order.
class RingJsonCollector : public ring::EventCallbacks {
 public:
  explicit RingJsonCollector(ring::OcamlVersion v) : version_(v) {}
  json events = json::array();
  Status error;

  bool RuntimeBegin(std::uint32_t r, std::uint64_t ts, unsigned phase) override {
    Add(r, ts, "begin", phase, ring::PhaseName(version_, phase));
    return true;
  }
  bool RuntimeEnd(std::uint32_t r, std::uint64_t ts, unsigned phase) override {
    Add(r, ts, "end", phase, ring::PhaseName(version_, phase));
    return true;
  }
  bool RuntimeCounter(std::uint32_t r, std::uint64_t ts, unsigned c, std::uint64_t v) override {
    Add(r, ts, "counter", c, ring::CounterName(version_, c))["value"] = v;
    return true;
  }
  bool Alloc(std::uint32_t r, std::uint64_t ts, std::span<const std::uint64_t> b) override {
    json& e = Add(r, ts, "alloc");
    e["buckets"] = std::vector<std::uint64_t>(b.begin(), b.end());
    return true;
  }
  bool LifecycleEvent(std::uint32_t r, std::uint64_t ts, unsigned kind,
                      std::int64_t data) override {
    Add(r, ts, "lifecycle", kind, ring::LifecycleName(kind))["data"] = data;
    return true;
  }
  bool LostEvents(std::uint32_t r, std::uint64_t words) override {
    events.push_back(json{{"ring", r}, {"kind", "lost_events"}, {"words", words}});
    return true;
  }
  bool UserUnit(std::uint32_t r, std::uint64_t ts, unsigned id, std::string_view name) override {
    AddUser(r, ts, "user_unit", id, name);
    return true;
  }
  bool UserInt(std::uint32_t r, std::uint64_t ts, unsigned id, std::string_view name,
               std::uint64_t v) override {
    AddUser(r, ts, "user_int", id, name)["value"] = ring::OcamlIntOfPayload(v);
    return true;
  }
  bool UserSpan(std::uint32_t r, std::uint64_t ts, unsigned id, std::string_view name,
                bool begin) override {
    AddUser(r, ts, begin ? "user_span_begin" : "user_span_end", id, name);
    return true;
  }
  bool UserCustom(std::uint32_t r, std::uint64_t ts, unsigned id, std::string_view name,
                  std::span<const std::uint64_t> payload) override {
    auto bytes = ring::DecodeCustomPayload(payload);
    if (!bytes.ok()) {
      if (error.ok()) error = bytes.status();
      return true;
    }
    std::string hex;
    for (unsigned char c : *bytes) {
      static constexpr char kDigits[] = "0123456789abcdef";
      hex += kDigits[c >> 4];
      hex += kDigits[c & 15];
    }
    AddUser(r, ts, "user_custom", id, name)["payload_hex"] = hex;
    return true;
  }

 private:
  json& Add(std::uint32_t r, std::uint64_t ts, const char* kind) {
    events.push_back(json{{"ring", r}, {"ts", ts}, {"kind", kind}});
    return events.back();
  }
  json& Add(std::uint32_t r, std::uint64_t ts, const char* kind, unsigned id,
            std::optional<std::string_view> name) {
    json& e = Add(r, ts, kind);
    e["id"] = id;
    e["name"] = name ? std::string(*name) : std::string("unknown");
    return e;
  }
  json& AddUser(std::uint32_t r, std::uint64_t ts, const char* kind, unsigned id,
                std::string_view name) {
    json& e = Add(r, ts, kind);
    e["id"] = id;
    e["name"] = std::string(name);
    return e;
  }
  ring::OcamlVersion version_;
};

// The decode is held in memory (a JSON node per backtrace entry, the whole text):
// tighter budgets than the streaming commands, so that a small trace cannot expand
// past a few hundred MB (memtrace/limits.h).
memtrace::Limits MemtraceLimits() {
  memtrace::Limits l;
  l.max_frames = std::uint64_t{1} << 20;
  l.max_output_bytes = std::uint64_t{1} << 25;
  return l;
}

}  // namespace

Result<CaseKind> KindOfPath(std::string_view path) {
  if (EndsWith(path, ".ctf")) return CaseKind::kMemtrace;
  if (EndsWith(path, ".sampler.json")) return CaseKind::kSampler;
  if (EndsWith(path, ".events") && !OcamlVersionFromPath(path).empty()) return CaseKind::kRing;
  return Status(ErrorCode::kInvalidArgument,
                "unknown case kind (expected *.ctf, *.ocaml-5.N.events or *.sampler.json): " +
                    std::string(path))
      .WithField("file name");
}

const char* KindName(CaseKind k) {
  switch (k) {
    case CaseKind::kMemtrace: return "memtrace";
    case CaseKind::kRing: return "ring";
    case CaseKind::kSampler: return "sampler";
  }
  return "?";
}

json ErrorJson(const Status& s) {
  json e{{"code", std::string(ErrorCodeName(s.code()))}, {"check", s.field()}};
  e["offset"] = s.byte_offset() ? json(*s.byte_offset()) : json(nullptr);
  if (s.bit_offset()) e["bit"] = *s.bit_offset();
  return e;
}

std::string DumpJson(const json& j, int indent) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

Result<Decoded> DecodeMemtrace(std::span<const std::uint8_t> bytes) {
  Decoded d;
  d.json = json{{"format", "memtrace"}};
  {
    memtrace::StringTextSink text;
    auto src = memtrace::MemorySource(bytes);
    const Status s = memtrace::WriteDumpTrace(*src, text, true, {}, MemtraceLimits());
    d.text = std::move(text.text);
    if (!s.ok()) d.text += "error: " + s.ToString() + "\n";
  }
  memtrace::ReaderOptions options;
  options.limits = MemtraceLimits();
  auto reader = memtrace::TraceReader::Open(memtrace::MemorySource(bytes), options);
  if (!reader.ok()) {
    d.json["error"] = ErrorJson(reader.status());
    return d;
  }
  memtrace::TraceReader& r = **reader;
  json events = json::array();
  std::set<memtrace::OcamlInt> used;
  while (const memtrace::Event* ev = r.NextEvent()) {
    json e{{"kind", EventKindName(ev->kind)},
           {"time", ev->time},
           {"domain", ev->domain},
           {"id", ev->obj_id}};
    if (ev->kind == memtrace::EventKind::kAlloc) {
      e["length"] = ev->length;
      e["nsamples"] = ev->nsamples;
      e["source"] = memtrace::AllocationSourceName(ev->source);
      e["common_prefix"] = ev->common_prefix;
      json bt = json::array();
      for (memtrace::OcamlInt code : ev->backtrace) {
        bt.push_back(Hex(static_cast<std::uint64_t>(code)));
        used.insert(code);
      }
      e["backtrace"] = std::move(bt);
    }
    events.push_back(std::move(e));
  }
  if (!r.status().ok()) {
    d.json["error"] = ErrorJson(r.status());
    return d;
  }
  json locs = json::object();
  for (memtrace::OcamlInt code : used) {
    const auto* v = r.LookupLocation(code);
    if (v == nullptr) {
      // A backtrace names a code no location event defined: the trace is corrupt, as the
      // text dumps (and memtrace's own reader, on lookup) report it.
      d.json["error"] = ErrorJson(Status(ErrorCode::kCorrupt, "location code never defined")
                                      .WithField("backtrace: location code"));
      return d;
    }
    json frames = json::array();
    for (const memtrace::Location& l : *v)
      frames.push_back(json{{"filename", l.filename},
                            {"line", l.line},
                            {"start_char", l.start_char},
                            {"end_char", l.end_char},
                            {"defname", l.defname}});
    locs[Hex(static_cast<std::uint64_t>(code))] = std::move(frames);
  }
  d.json["info"] = InfoJson(r.info(), r.version());
  d.json["events"] = std::move(events);
  d.json["locations"] = std::move(locs);
  json warnings = json::array();
  for (const memtrace::ReaderWarning& w : r.warnings()) warnings.push_back(w.offset);
  d.json["skipped_packets"] = std::move(warnings);
  d.json["error"] = nullptr;
  return d;
}

Result<Decoded> DecodeRing(std::span<const std::uint8_t> bytes, std::string_view ocaml_version) {
  auto version = ring::ParseOcamlVersion(ocaml_version);
  if (!version)
    return Status(ErrorCode::kInvalidArgument,
                  "unknown OCaml release " + std::string(ocaml_version))
        .WithField("ocaml version");
  Decoded d;
  d.json = json{{"format", "ring"}, {"ocaml_version", std::string(ocaml_version)}};
  auto as_bytes = std::as_bytes(bytes);
  RingJsonCollector collector(*version);
  ring::GoldenLineWriter text(*version);
  Status error;
  for (ring::EventCallbacks* cb : {static_cast<ring::EventCallbacks*>(&collector),
                                   static_cast<ring::EventCallbacks*>(&text)}) {
    auto cursor = ring::Cursor::FromBytes(as_bytes);
    if (!cursor.ok()) {
      error = cursor.status();
      break;
    }
    // One poll reads every ring up to its tail: the file has no live producer.
    auto n = cursor->ReadPoll(*cb);
    if (!n.ok()) {
      error = n.status();
      break;
    }
  }
  if (error.ok()) error = collector.error;
  d.text = text.TakeText();
  if (!error.ok()) {
    d.text += "error: " + error.ToString() + "\n";
    d.json["error"] = ErrorJson(error);
    return d;
  }
  d.json["events"] = std::move(collector.events);
  d.json["error"] = nullptr;
  return d;
}

Result<Decoded> DecodeSampler(std::string_view request_json) {
  const json req = json::parse(request_json, nullptr, /*allow_exceptions=*/false);
  auto bad = [](const std::string& what) {
    return Status(ErrorCode::kInvalidArgument, what).WithField("sampler request");
  };
  if (!req.is_object() || !req.contains("seed") || !req["seed"].is_number_unsigned() ||
      !req.contains("lambda") || !req["lambda"].is_number() || !req.contains("mode") ||
      !req["mode"].is_string())
    return bad("expected {\"seed\":N,\"lambda\":L,\"mode\":\"geometric\"|\"binomial\",...}");
  auto rate = sampler::SamplingRate::FromLambda(req["lambda"].get<double>());
  if (!rate.ok()) return rate.status();
  sampler::Sampler s(req["seed"].get<std::uint64_t>());
  s.Start(*rate);
  json draws = json::array();
  std::string text;
  const std::string mode = req["mode"].get<std::string>();
  if (mode == "geometric") {
    if (!req.contains("count") || !req["count"].is_number_unsigned() ||
        req["count"].get<std::uint64_t>() > 1000000)
      return bad("geometric needs \"count\" in [0, 1000000]");
    const std::uint64_t n = req["count"].get<std::uint64_t>();
    // A running profile's view: `sample geometric --as-profile` lists the same draws.
    sampler::GeometricListing listing(req["seed"].get<std::uint64_t>(), *rate,
                                      sampler::GeometricView::kAsProfile);
    for (std::uint64_t i = 0; i < n; ++i) draws.push_back(listing.Next());
  } else if (mode == "binomial") {
    if (!req.contains("lengths") || !req["lengths"].is_array() || req["lengths"].size() > 1000000)
      return bad("binomial needs \"lengths\": an array of at most 1000000 lengths");
    // rand_binom costs O(len * lambda) draws (except at lambda = 1): bound the work so a
    // hostile request cannot keep the decoder busy for hours.
    const double lambda = req["lambda"].get<double>();
    double work = 0;
    for (const json& len : req["lengths"]) {
      if (!len.is_number_unsigned()) return bad("lengths must be unsigned integers");
      if (lambda < 1) work += static_cast<double>(len.get<std::uint64_t>()) * lambda;
    }
    if (work > 1e8)
      return Status(ErrorCode::kOutOfRange, "more than 1e8 expected samples in total")
          .WithField("sampler request: lengths");
    for (const json& len : req["lengths"]) {
      auto v = s.CheckedBinomial(len.get<std::uint64_t>());
      if (!v.ok()) return v.status();
      draws.push_back(*v);
    }
  } else {
    return bad("mode must be geometric or binomial, not " + mode);
  }
  for (const json& v : draws) text += std::to_string(v.get<std::uint64_t>()) + "\n";
  Decoded d;
  d.json =
      json{{"format", "sampler"}, {"mode", mode}, {"draws", std::move(draws)}, {"error", nullptr}};
  d.text = std::move(text);
  return d;
}

Result<Decoded> DecodeFile(const std::string& path) {
  auto kind = KindOfPath(path);
  if (!kind.ok()) return kind.status();
  auto bytes = ReadWholeFile(path);
  if (!bytes.ok()) return bytes.status();
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes->data());
  // The decoders build JSON values, which throw only when memory runs out (or on a bug):
  // neither may leave the kit as an exception.
  try {
    switch (*kind) {
      case CaseKind::kMemtrace: return DecodeMemtrace({data, bytes->size()});
      case CaseKind::kRing: return DecodeRing({data, bytes->size()}, OcamlVersionFromPath(path));
      case CaseKind::kSampler: return DecodeSampler(*bytes);
    }
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory decoding the case").WithField(path);
  } catch (const nlohmann::json::exception& e) {
    return Status(ErrorCode::kInternal, std::string("JSON: ") + e.what()).WithField(path);
  }
  return Status(ErrorCode::kInternal, "unreachable");
}

}  // namespace mpo::corpus
