// Round-trips one column through the IPC stream format: enough to need every module.
#include <iostream>
#include <string>

#include "alkaid/builder.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/table.h"
#include "alkaid/version.h"

int main() {
  if (std::string(ALKAID_CMAKE_VERSION) != ALKAID_VERSION_STRING ||
      std::string(ALKAID_VERSION_STRING) != alkaid::Version()) {
    std::cerr << "version mismatch: CMake " << ALKAID_CMAKE_VERSION << ", header "
              << ALKAID_VERSION_STRING << ", library " << alkaid::Version() << "\n";
    return 1;
  }
  alkaid::Int32Builder b;
  if (!b.Append(42).ok()) return 1;
  auto data = b.Finish();
  if (!data.ok()) return 1;
  auto schema = alkaid::schema({alkaid::field("x", alkaid::int32())});
  auto bytes = alkaid::ipc::SerializeStream(schema, {alkaid::RecordBatch::Make(schema, 1, {*data})});
  if (!bytes.ok()) return 1;
  auto reader = alkaid::ipc::StreamReader::Open(*bytes);
  if (!reader.ok()) return 1;
  auto batch = (*reader)->Next();
  if (!batch.ok() || !*batch || (*batch)->num_rows() != 1) return 1;
  std::cout << "alkaid " << alkaid::Version() << ": consumer OK\n";
  return 0;
}
