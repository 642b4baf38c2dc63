#include "open_input.h"

#include "report.h"

namespace alkaid::cli {

Opened OpenOrReport(const Options& options, const std::vector<std::string>& columns,
                    const ipc::IpcReadOptions& ipc_options) {
  const std::string subject = InputName(options.input);
  if (!options.text.error.ok())
    return {nullptr, Report(options.command, options.text.error, kExitUsage)};
  SourceOptions source_options;
  source_options.columns = columns;
  source_options.ipc = ipc_options;
  source_options.text = options.text;
  source_options.flight = options.flight;
  const Source* chosen = nullptr;
  auto input = OpenInput(options.input, options.input_format, source_options, options.app, &chosen);
  if (input.ok()) return {std::move(input).MoveValueUnsafe(), kExitOk};
  const Status& st = input.status();
  // Formats alkaid knows but does not read are a usage error.
  if (chosen == nullptr && st.IsNotImplemented()) return {nullptr, Report(subject, st, kExitUsage)};
  if (chosen != nullptr && (chosen->options & kAnyText) != 0)
    return {nullptr, Report(subject, WithHint(st, options))};
  return {nullptr, Report(subject, st)};
}

}  // namespace alkaid::cli
