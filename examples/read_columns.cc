// Opens an Arrow IPC file through mmap and reads two of its columns by name.
//
//   read_columns [path]        (default: cities.arrow, as written by write_ipc_file)
//
// The batches point straight into the mapping (zero-copy) unless a buffer is compressed, as it
// is here: then only that buffer is decompressed into memory. The mapping stays alive as long
// as any array still refers to it.
#include <iostream>
#include <string>

#include "alkaid/array.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/status.h"
#include "alkaid/table.h"

namespace {

alkaid::Status Run(const std::string& path) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, alkaid::ipc::FileReader::OpenMapped(path));
  const alkaid::SchemaPtr& schema = reader->schema();
  std::cout << "schema: " << schema->ToString() << "\n";

  // Look the two columns up by name once; every batch has the file's schema.
  const int city = schema->GetFieldIndex("city");
  const int temperature = schema->GetFieldIndex("temperature");
  if (city < 0 || temperature < 0) {
    return alkaid::Status::KeyError(path, ": needs columns 'city' and 'temperature'");
  }

  for (int b = 0; b < reader->num_record_batches(); ++b) {
    ALKAID_ASSIGN_OR_RAISE(auto batch, reader->ReadRecordBatch(b));
    // Typed views over the column data: StringArray gives string_views into the buffer.
    alkaid::StringArray cities(batch->column_data(city));
    alkaid::DoubleArray temps(batch->column_data(temperature));
    for (int64_t i = 0; i < batch->num_rows(); ++i) {
      std::cout << cities.GetView(i) << ": ";
      if (temps.IsNull(i)) {
        std::cout << "(no reading)\n";
      } else {
        std::cout << temps.Value(i) << " C\n";
      }
    }
  }
  return alkaid::Status::OK();
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : "cities.arrow";
  alkaid::Status st = Run(path);
  if (!st.ok()) {
    std::cerr << "error: " << st.ToString() << "\n";
    return 1;
  }
  return 0;
}
