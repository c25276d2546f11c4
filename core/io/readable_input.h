// The one way a reader opens what the user named: a regular file, "-" for stdin, or
// either of them gzip-compressed. A plain regular file is left to be read in place (a
// trace by pread, a ring by mmap, so memory stays bounded and a live ring stays live);
// stdin and gzip inputs are read whole into memory (inflated), within a FileBudget.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/io/file_budget.h"
#include "core/io/input_file.h"
#include "core/io/input_format.h"

namespace mpo::io {

// The path that names stdin.
inline constexpr std::string_view kStdinPath = "-";

struct ReadableInput {
  std::optional<InputFile> file;               // set: a plain regular file, to be read in place
  std::vector<std::uint8_t> bytes;             // else: the whole content, inflated if it was gzip
  InputFormat format = InputFormat::kUnknown;  // of the content (after inflation)
  FileId id;                                   // of what was opened (stdin: its fstat)
  bool gzip = false;
};

// Opens `path` ("-": stdin) with OpenInput's rules. Errors: those of OpenInput; kIo for
// a failed read; OverBudget (kResourceExhausted) when stdin, a gzip file or its inflated
// content passes `budget`; Gunzip's errors for bad compressed data.
Result<ReadableInput> OpenReadable(const std::string& path, const FileBudget& budget);

// "a memtrace trace" / "an OCaml runtime events ring" / ...: for messages.
const char* DescribeFormat(InputFormat format);

}  // namespace mpo::io
