// Builds a small table column by column with builders and writes it to an Arrow IPC file
// whose body buffers are compressed with ZSTD.
//
//   write_ipc_file [path]      (default: cities.arrow)
//
// Every alkaid call returns a Status or a Result<T>; nothing throws. The Run() function uses
// ALKAID_RETURN_NOT_OK / ALKAID_ASSIGN_OR_RAISE to hand the first error back to main().
#include <iostream>
#include <string>

#include "alkaid/builder.h"
#include "alkaid/io/output.h"
#include "alkaid/ipc/writer.h"
#include "alkaid/status.h"
#include "alkaid/table.h"
#include "alkaid/type.h"

namespace {

alkaid::Status Run(const std::string& path) {
  // One builder per column. Append() adds a value, AppendNull() a null slot.
  alkaid::Int64Builder ids;
  alkaid::StringBuilder names;
  alkaid::DoubleBuilder temperatures;
  const char* city_names[] = {"Oslo", "Lima", "Pune", "Perth"};
  const double temps[] = {4.5, 19.0, 0.0, 22.25};
  for (int i = 0; i < 4; ++i) {
    ALKAID_RETURN_NOT_OK(ids.Append(100 + i));
    ALKAID_RETURN_NOT_OK(names.Append(city_names[i]));
    // Pune's reading is missing: a null, not a zero.
    if (i == 2) {
      ALKAID_RETURN_NOT_OK(temperatures.AppendNull());
    } else {
      ALKAID_RETURN_NOT_OK(temperatures.Append(temps[i]));
    }
  }
  // Finish() hands over the built column (an ArrayDataPtr) and resets the builder.
  ALKAID_ASSIGN_OR_RAISE(auto id_column, ids.Finish());
  ALKAID_ASSIGN_OR_RAISE(auto name_column, names.Finish());
  ALKAID_ASSIGN_OR_RAISE(auto temp_column, temperatures.Finish());

  auto schema = alkaid::schema({alkaid::field("id", alkaid::int64(), /*nullable=*/false),
                                alkaid::field("city", alkaid::utf8()),
                                alkaid::field("temperature", alkaid::float64())});
  // MakeChecked validates that the columns match the schema and the row count.
  ALKAID_ASSIGN_OR_RAISE(auto batch, alkaid::RecordBatch::MakeChecked(
                                         schema, 4, {id_column, name_column, temp_column}));

  // The file format (random access, with a footer). ZSTD compresses each body buffer.
  alkaid::ipc::IpcWriteOptions options;
  options.compression = alkaid::ipc::CompressionType::kZstd;
  ALKAID_ASSIGN_OR_RAISE(auto sink, alkaid::io::FileOutputStream::Open(path));
  ALKAID_ASSIGN_OR_RAISE(auto writer, alkaid::ipc::MakeFileWriter(sink.get(), schema, options));
  ALKAID_RETURN_NOT_OK(writer->WriteRecordBatch(*batch));
  ALKAID_RETURN_NOT_OK(writer->Close());  // writes the footer
  ALKAID_RETURN_NOT_OK(sink->Close());

  std::cout << "wrote " << batch->num_rows() << " rows, " << batch->num_columns()
            << " columns to " << path << " (zstd)\n";
  std::cout << batch->ToString() << "\n";
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
