#include "tools/ring/trace_views.h"

#include <cinttypes>
#include <cstdio>

namespace mpo::tools {

using Kind = DecodedEvent::Kind;

nlohmann::json ChromeTrace(const std::vector<DecodedEvent>& events, std::int64_t pid) {
  std::uint64_t origin = 0;
  for (const DecodedEvent& e : events) {
    if (e.kind != Kind::kLostEvents && (origin == 0 || e.ts < origin)) origin = e.ts;
  }
  nlohmann::json out = nlohmann::json::array();
  std::map<std::uint32_t, std::uint64_t> last_ts;  // lost events borrow their ring's time
  std::map<std::uint32_t, bool> named;
  for (const DecodedEvent& e : events) {
    if (!named[e.ring]) {
      named[e.ring] = true;
      out.push_back({{"ph", "M"},
                     {"name", "thread_name"},
                     {"pid", pid},
                     {"tid", e.ring},
                     {"args", {{"name", "domain " + std::to_string(e.ring)}}}});
    }
    const std::uint64_t ts = e.kind == Kind::kLostEvents ? last_ts[e.ring] : e.ts;
    last_ts[e.ring] = ts;
    const double us = static_cast<double>(ts >= origin ? ts - origin : 0) / 1000.0;
    nlohmann::json j = {{"pid", pid}, {"tid", e.ring}, {"ts", us}, {"name", e.name}};
    switch (e.kind) {
      case Kind::kBegin:
      case Kind::kUserSpanBegin:
        j["ph"] = "B";
        j["cat"] = e.kind == Kind::kBegin ? "runtime" : "user";
        break;
      case Kind::kEnd:
      case Kind::kUserSpanEnd:
        j["ph"] = "E";
        j["cat"] = e.kind == Kind::kEnd ? "runtime" : "user";
        break;
      case Kind::kCounter:
        j["ph"] = "C";
        j["args"] = {{"value", e.value}};
        break;
      default: {
        j["ph"] = "i";
        j["s"] = "t";
        j["cat"] = KindName(e.kind);
        nlohmann::json args = ToJson(e);
        args.erase("ring");
        args.erase("ts");
        j["args"] = args;
        break;
      }
    }
    out.push_back(std::move(j));
  }
  return {{"traceEvents", out}, {"displayTimeUnit", "ns"}};
}

StreamStats ComputeStats(const std::vector<DecodedEvent>& events) {
  StreamStats s;
  // Open phases per ring, innermost last.
  std::map<std::uint32_t, std::vector<const DecodedEvent*>> open;
  for (const DecodedEvent& e : events) {
    RingStats& r = s.rings[e.ring];
    ++r.events_by_kind[KindName(e.kind)];
    if (e.kind == Kind::kLostEvents) {
      r.lost_words += static_cast<std::uint64_t>(e.value);
      open[e.ring].clear();  // what was open may have ended in the lost part
    } else if (e.kind == Kind::kBegin) {
      open[e.ring].push_back(&e);
    } else if (e.kind == Kind::kEnd) {
      auto& stack = open[e.ring];
      // Match the innermost open begin of the same phase.
      auto it = stack.end();
      while (it != stack.begin()) {
        --it;
        if ((*it)->id == e.id) break;
      }
      if (stack.empty() || (*it)->id != e.id) {
        ++r.unmatched_ends;
        continue;
      }
      const std::uint64_t d = e.ts >= (*it)->ts ? e.ts - (*it)->ts : 0;
      PhaseStats& p = s.phases[e.name];
      ++p.count;
      p.total_ns += d;
      if (d > p.max_ns) p.max_ns = d;
      stack.erase(it, stack.end());
    }
  }
  return s;
}

std::string FormatStats(const StreamStats& s) {
  std::string out =
      "phase                              count     total_ns       mean_ns        max_ns\n";
  char line[256];
  for (const auto& [name, p] : s.phases) {
    std::snprintf(line, sizeof line,
                  "%-32s %7" PRIu64 " %12" PRIu64 " %13" PRIu64 " %13" PRIu64 "\n", name.c_str(),
                  p.count, p.total_ns, p.count ? p.total_ns / p.count : 0, p.max_ns);
    out += line;
  }
  for (const auto& [ring, r] : s.rings) {
    std::uint64_t total = 0;
    for (const auto& [k, n] : r.events_by_kind) total += n;
    std::snprintf(line, sizeof line,
                  "domain %u: %" PRIu64 " events, %" PRIu64 " lost words, %" PRIu64
                  " unmatched ends\n",
                  ring, total, r.lost_words, r.unmatched_ends);
    out += line;
    for (const auto& [k, n] : r.events_by_kind) {
      std::snprintf(line, sizeof line, "  %-16s %" PRIu64 "\n", k.c_str(), n);
      out += line;
    }
  }
  return out;
}

nlohmann::json StatsJson(const StreamStats& s) {
  nlohmann::json j;
  j["phases"] = nlohmann::json::object();
  for (const auto& [name, p] : s.phases) {
    j["phases"][name] = {{"count", p.count}, {"total_ns", p.total_ns}, {"max_ns", p.max_ns}};
  }
  j["domains"] = nlohmann::json::array();
  for (const auto& [ring, r] : s.rings) {
    j["domains"].push_back({{"ring", ring},
                            {"events", r.events_by_kind},
                            {"lost_words", r.lost_words},
                            {"unmatched_ends", r.unmatched_ends}});
  }
  return j;
}

}  // namespace mpo::tools
