// What the memtrace subcommands share to read their inputs and write their outputs:
// opening a trace (an error reported once), a progress bar as a reader callback, and a
// whole output text to stdout.
#pragma once

#include <memory>
#include <string>

#include "core/io/input_file.h"
#include "core/memtrace/byte_io.h"
#include "core/memtrace/progress.h"
#include "tools/progress.h"

namespace mpo::tools {

void WriteOut(const std::string& text);

// Byte progress of a read (tools/progress.h), as a reader callback.
memtrace::ProgressFn BytesProgress(Progress& p);

// The trace at `path`, or null once the error is reported under `cmd`.
std::unique_ptr<memtrace::ByteSource> OpenOrReport(const std::string& cmd, const std::string& path,
                                                   io::FileId* id = nullptr);

}  // namespace mpo::tools
