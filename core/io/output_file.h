// Writing a file so that nothing already there is lost: the bytes go to a temporary file
// created beside the target (O_EXCL, so no planted symlink is followed), and only a
// successful Commit() renames it over the target. An output that is never committed
// (an error, an early return) is removed, leaving any previous file untouched.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/base/unique_fd.h"
#include "core/io/input_file.h"

namespace mpo::io {

class AtomicOutput {
 public:
  AtomicOutput(AtomicOutput&& other) noexcept;
  AtomicOutput& operator=(AtomicOutput&& other) noexcept;
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();  // removes the temporary file unless committed

  // Starts writing `path`. kInvalidArgument (field: the path) if `path` already names
  // one of `inputs` (same device and inode, after links, so a symlink or hard link to
  // an input is caught) or a directory; kIo if the temporary file cannot be created.
  static Result<AtomicOutput> Create(const std::string& path, std::span<const FileId> inputs = {});

  // Buffered; a failure is sticky and names the path.
  Status Write(std::span<const std::uint8_t> bytes);
  Status Write(std::string_view text);

  // Flushes and fsyncs what was written so far (a later Commit then has little left to
  // wait for). An error is sticky.
  Status Sync();

  // Empties the temporary file and forgets any write error: written again from the
  // start, the output is as if created now. kFailedPrecondition once committed.
  Status Restart();

  // Flushes, fsyncs, closes (all checked) and renames over the target, which keeps mode
  // 0644 less the umask. After an error the temporary file is already removed.
  Status Commit();

  const std::string& path() const { return path_; }

 private:
  AtomicOutput() = default;
  Status Flush();
  // Writes `bytes` to the temporary file (all of them, or a sticky error).
  Status WriteThrough(std::span<const std::uint8_t> bytes);
  void Discard();

  std::string path_;
  std::string temp_path_;
  UniqueFd fd_;
  std::vector<std::uint8_t> buffer_;
  Status error_;
  std::uint64_t written_ = 0;         // bytes written to the temporary file so far
  std::uint64_t writeback_from_ = 0;  // writeback was started for [0, writeback_from_)
};

// kInvalidArgument if `path` names one of `inputs`; Ok if it names nothing yet.
Status RefuseSameFile(const std::string& path, std::span<const FileId> inputs);

}  // namespace mpo::io
