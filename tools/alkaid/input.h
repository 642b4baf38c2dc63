// Reading whatever the user hands the CLI: an IPC file or an IPC stream,
// told apart by content (the leading magic), from a path or from stdin ("-").
#pragma once

#include <string>
#include <vector>

#include "alkaid/dictionary_ids.h"
#include "alkaid/ipc/options.h"
#include "alkaid/table.h"

namespace alkaid::cli {

struct InputData {
  bool is_file_format = false;  // IPC file (ARROW1/ALKAID1 magic) or stream
  SchemaPtr schema;
  DictionaryIds dictionary_ids;
  std::vector<RecordBatchPtr> batches;
};

// Reads every batch. `columns` (names) projects the read; unknown names fail.
// IO failures come back as IOError, anything wrong with the bytes as Invalid
// (or another non-IO code).
Result<InputData> ReadInput(const std::string& path, const std::vector<std::string>& columns,
                            const ipc::IpcReadOptions& options);

}  // namespace alkaid::cli
