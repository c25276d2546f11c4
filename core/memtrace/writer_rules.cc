#include "core/memtrace/writer_rules.h"

#include <string>

namespace mpo::memtrace {

Status WriteInfoPacket(ByteWriter& b, const Info& info, int version, std::int64_t pid) {
  b.Reset();
  const PacketHeaderSlots h =
      WritePacketHeader(b, version, pid, info.initial_domain, CacheVerifier{});
  WriteEventHeader(b, static_cast<unsigned>(EventCode::kTraceInfo), info.start_time);
  b.Float(info.sample_rate);
  b.U8(info.word_size);
  b.String(info.executable_name);
  b.String(info.host_name);
  b.String(info.ocaml_runtime_params);
  b.U64(static_cast<std::uint64_t>(info.pid));
  b.String(info.context ? *info.context : std::string());
  if (!b.ok()) return Status(b.status()).WithField("trace info");
  FinishPacketHeader(b, h, info.start_time, info.start_time, 0, 0);
  return Status::Ok();
}

}  // namespace mpo::memtrace
