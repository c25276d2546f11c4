#include "tools/memtrace/memtrace_io.h"

#include <cstdio>
#include <utility>

#include "tools/exit_code.h"

namespace mpo::tools {

void WriteOut(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

memtrace::ProgressFn BytesProgress(Progress& p) {
  return [&p](std::uint64_t done, std::uint64_t) { p.Update(done); };
}

std::unique_ptr<memtrace::ByteSource> OpenOrReport(const std::string& cmd, const std::string& path,
                                                   io::FileId* id) {
  auto src = memtrace::OpenFileSource(path, id);
  if (!src.ok()) {
    ReportError(cmd, src.status());
    return nullptr;
  }
  return std::move(*src);
}

}  // namespace mpo::tools
