// The report page's fixed parts (report_assets.cc): its style sheet, its body's skeleton
// and the script that draws it from the data block (html_report.h). Kept apart from the
// writer so the page's look changes without touching how its data is written.
#pragma once

namespace mpo::memtrace::report {

extern const char kReportCss[];
extern const char kReportBody[];
extern const char kReportScript[];

}  // namespace mpo::memtrace::report
