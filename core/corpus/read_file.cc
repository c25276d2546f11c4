#include "core/corpus/read_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "core/io/input_file.h"

namespace mpo::corpus {

Result<std::string> ReadWholeFile(const std::string& path, const FileBudget& budget) {
  const std::uint64_t max_bytes = budget.max_bytes;
  auto in = io::OpenInput(path);
  if (!in.ok()) return in.status();
  auto too_big = [&] { return io::OverBudget(budget, path); };
  if (in->size > max_bytes) return too_big();
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(in->size));
    std::size_t have = 0;
    // The file may change under us: read to end of file, not to the size seen at open.
    while (true) {
      if (have == bytes.size()) {
        if (bytes.size() > max_bytes) return too_big();
        bytes.resize(bytes.size() + 65536);
      }
      const ssize_t n = ::read(in->fd.get(), bytes.data() + have, bytes.size() - have);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        return Status(ErrorCode::kIo, std::string("cannot read: ") + std::strerror(errno))
            .WithField(path);
      if (n == 0) break;
      have += static_cast<std::size_t>(n);
    }
    if (have > max_bytes) return too_big();
    bytes.resize(have);
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kResourceExhausted, "out of memory reading the file").WithField(path);
  }
  return bytes;
}

}  // namespace mpo::corpus
