#include "core/ring/dump_format.h"

#include <cstdio>

namespace mpo::ring {

void GoldenLineWriter::Prefix(std::uint32_t ring, std::uint64_t ts, std::string_view kind) {
  text_ += std::to_string(ring);
  text_ += ' ';
  // OCaml prints Timestamp.to_int64 with %Ld.
  text_ += std::to_string(static_cast<std::int64_t>(ts));
  text_ += ' ';
  text_ += kind;
  text_ += ' ';
}

std::string_view GoldenLineWriter::Tag(std::string_view name) const {
  auto it = tags_.find(std::string(name));
  return it == tags_.end() ? std::string_view("UNK") : std::string_view(it->second);
}

bool GoldenLineWriter::RuntimeBegin(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  Prefix(ring, ts, "begin");
  text_ += PhaseName(version_, phase).value_or("unknown");
  text_ += " #" + std::to_string(phase) + "\n";
  return true;
}

bool GoldenLineWriter::RuntimeEnd(std::uint32_t ring, std::uint64_t ts, unsigned phase) {
  Prefix(ring, ts, "end");
  text_ += PhaseName(version_, phase).value_or("unknown");
  text_ += " #" + std::to_string(phase) + "\n";
  return true;
}

bool GoldenLineWriter::RuntimeCounter(std::uint32_t ring, std::uint64_t ts, unsigned counter,
                                      std::uint64_t value) {
  Prefix(ring, ts, "counter");
  text_ += CounterName(version_, counter).value_or("unknown");
  text_ += " #" + std::to_string(counter) + " " + std::to_string(OcamlIntOfPayload(value)) + "\n";
  return true;
}

bool GoldenLineWriter::Alloc(std::uint32_t ring, std::uint64_t ts,
                             std::span<const std::uint64_t> b) {
  Prefix(ring, ts, "alloc");
  text_ += '[';
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i) text_ += ';';
    text_ += std::to_string(OcamlIntOfPayload(b[i]));
  }
  text_ += "]\n";
  return true;
}

bool GoldenLineWriter::LifecycleEvent(std::uint32_t ring, std::uint64_t ts, unsigned kind,
                                      std::int64_t data) {
  Prefix(ring, ts, "lifecycle");
  text_ += LifecycleName(kind).value_or("unknown");
  text_ += " #" + std::to_string(kind) + " ";
  // OCaml's binding turns a payload of 0 into None.
  text_ += data == 0 ? std::string("none")
                     : std::to_string(OcamlIntOfPayload(static_cast<std::uint64_t>(data)));
  text_ += '\n';
  return true;
}

bool GoldenLineWriter::LostEvents(std::uint32_t ring, std::uint64_t words) {
  text_ += std::to_string(ring) + " lost_events " + std::to_string(words) + "\n";
  return true;
}

bool GoldenLineWriter::UserUnit(std::uint32_t ring, std::uint64_t ts, unsigned,
                                std::string_view name) {
  Prefix(ring, ts, "user_unit");
  text_ += std::string(name) + " " + std::string(Tag(name)) + "\n";
  return true;
}

bool GoldenLineWriter::UserInt(std::uint32_t ring, std::uint64_t ts, unsigned,
                               std::string_view name, std::uint64_t value) {
  Prefix(ring, ts, "user_int");
  text_ += std::string(name) + " " + std::string(Tag(name)) + " " +
           std::to_string(OcamlIntOfPayload(value)) + "\n";
  return true;
}

bool GoldenLineWriter::UserSpan(std::uint32_t ring, std::uint64_t ts, unsigned,
                                std::string_view name, bool begin) {
  Prefix(ring, ts, "user_span");
  text_ += std::string(name) + " " + std::string(Tag(name)) + (begin ? " begin\n" : " end\n");
  return true;
}

bool GoldenLineWriter::UserCustom(std::uint32_t ring, std::uint64_t ts, unsigned,
                                  std::string_view name, std::span<const std::uint64_t> payload) {
  auto bytes = DecodeCustomPayload(payload);
  if (!bytes.ok()) {
    if (error_.ok()) error_ = bytes.status();
    return true;
  }
  Prefix(ring, ts, "user_custom");
  text_ += std::string(name) + " " + std::string(Tag(name)) + " " + OcamlQuoted(*bytes) + "\n";
  return true;
}

}  // namespace mpo::ring
