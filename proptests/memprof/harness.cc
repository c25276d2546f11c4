#include "proptests/memprof/harness.h"

#include "proptests/memprof/harness_impl.h"

namespace mpo::memprof::harness {

std::ostream& operator<<(std::ostream& os, const Op& op) {
  const auto k = static_cast<std::size_t>(op.kind);
  os << (k < std::size(detail::kOpNames) ? detail::kOpNames[k] : "?");
  switch (op.kind) {
    case OpKind::kAllocCaml: os << "(subs=" << 1 + op.a % 4 << ", seed=" << int{op.b} << ")"; break;
    case OpKind::kAllocSmallC: os << "(wosize=" << 1 + op.b % 40 << ")"; break;
    case OpKind::kAllocMajor: os << "(wosize=" << 257 + op.b << ")"; break;
    case OpKind::kStart: os << "(rate=" << detail::kRates[op.a % 5] << ")"; break;
    case OpKind::kArm:
      os << "(" << detail::kActionNames[op.a % static_cast<int>(CallbackAction::kCount)] << ")";
      break;
    case OpKind::kFailCHeap:
      os << "(site=" << detail::kSiteNames[op.a % kCHeapSiteCount] << ", skip=" << op.b % 8 << ")";
      break;
    case OpKind::kRelease:
    case OpKind::kDiscard:
    case OpKind::kSwitchThread:
    case OpKind::kEndThread:
    case OpKind::kSwitchDomain:
    case OpKind::kEndDomain: os << "(" << int{op.a} << ")"; break;
    default: break;
  }
  return os;
}

std::vector<Op> DecodeOps(std::span<const std::uint8_t> bytes, std::size_t max_ops) {
  std::vector<Op> ops;
  for (std::size_t i = 0; i + 3 <= bytes.size() && ops.size() < max_ops; i += 3) {
    ops.push_back(Op{static_cast<OpKind>(bytes[i] % static_cast<int>(OpKind::kCount)), bytes[i + 1],
                     bytes[i + 2]});
  }
  return ops;
}

// The production instantiation is compiled once here.
template RunReport Run<NoFaults>(std::span<const Op> ops, const RunOptions& options);

}  // namespace mpo::memprof::harness
