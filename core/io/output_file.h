// The one way the program writes a file, so that nothing already there is lost: the
// bytes go to a temporary file created beside the target (O_EXCL, so no planted symlink
// is followed; a short hashed name when the target's name is too long to extend), and
// only a successful Commit() renames it over the target. An output that is never
// committed (an error, an early return) is removed, leaving any previous file untouched;
// so is one a termination signal interrupts (cleanup_registry.h). A target that exists
// and is not a regular file (a device, a FIFO, a socket, a directory) is refused before
// anything is written: renaming over /dev/null or a FIFO would replace it.
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/base/unique_fd.h"
#include "core/io/cleanup_registry.h"
#include "core/io/input_file.h"

namespace mpo::io {

class AtomicOutput {
 public:
  AtomicOutput(AtomicOutput&& other) noexcept;
  AtomicOutput& operator=(AtomicOutput&& other) noexcept;
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;
  ~AtomicOutput();  // removes the temporary file unless committed

  // Starts writing `path`: CheckOutputTarget, then the temporary file (kIo if it cannot
  // be created), registered for removal if a signal ends the process.
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

  // Flushes, fsyncs, closes (all checked) and renames over the target. A replaced file
  // keeps its mode (and owner, when run as root); a new one gets 0666 less the umask. After an
  // error the temporary file is already removed.
  Status Commit();

  // Like Commit, for a file that must be new: kIo "already exists" if anything (a file,
  // a symlink) took the target's name meanwhile, which is then left as it was.
  Status CommitNew();

  const std::string& path() const { return path_; }

 private:
  AtomicOutput() = default;
  Status Flush();
  Status Finish(bool replace);
  // Writes `bytes` to the temporary file (all of them, or a sticky error).
  Status WriteThrough(std::span<const std::uint8_t> bytes);
  void Discard();

  std::string path_;
  std::string temp_path_;
  UniqueFd fd_;
  ScopedCleanup cleanup_;
  std::vector<std::uint8_t> buffer_;
  Status error_;
  std::uint64_t written_ = 0;         // bytes written to the temporary file so far
  std::uint64_t writeback_from_ = 0;  // writeback was started for [0, writeback_from_)
};

// Whether `path` may be written: kInvalidArgument (field: the path) if it names one of
// `inputs` (same device and inode, after links, so a symlink or hard link to an input is
// caught), a directory, or anything else that is not a regular file (a device, a FIFO,
// a socket); kIo if it cannot be examined. What is there now: nothing, or its stat.
Result<std::optional<struct stat>> CheckOutputTarget(const std::string& path,
                                                     std::span<const FileId> inputs = {});

// kInvalidArgument if `path` names one of `inputs`; Ok if it names nothing yet.
Status RefuseSameFile(const std::string& path, std::span<const FileId> inputs);

}  // namespace mpo::io
