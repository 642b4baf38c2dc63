// `alkaid to-json FILE`: the data as integration JSON on stdout, batch by
// batch. Integration JSON puts the dictionaries first, so when the schema
// has dictionary-encoded fields a first pass collects them (a file: from
// its first batch, which the reader gives every dictionary; a stream: from
// every batch; standard input is then refused).
#include <iostream>
#include <map>

#include "alkaid/integration_json/integration.h"
#include "command.h"
#include "open_input.h"
#include "progress.h"
#include "report.h"

namespace alkaid::cli {

namespace {

void AddOptions(CLI::App* cmd, Options* options) {
  AddInputArgument(cmd, options, kInputHelp);
  AddInputOptions(cmd, options);
  AddOption(cmd, "--max-output-bytes", &options->json_limits.max_output_bytes,
            "Refuse to write more JSON than this (-1: no limit)", kShowDefault);
  AddOption(cmd, "--max-column-bytes", &options->json_limits.max_column_bytes,
            "Refuse a column whose JSON would exceed this (-1: no limit)", kShowDefault);
}

bool HasDictionaries(const Schema& schema) {
  return !DictionaryIds::AssignSequential(schema).empty();
}

int Run(const Options& options) {
  const std::string& path = options.input;
  const std::string subject = InputName(path);
  std::map<int64_t, ArrayDataPtr> dictionaries;
  auto [input, code] = OpenOrReport(options, {});
  if (!input) return code;
  if (HasDictionaries(*input->schema())) {
    if (path == "-" && input->num_batches() < 0)
      return Report(subject,
                    Status::NotImplemented(
                        "to-json of a stream with dictionary-encoded fields needs two passes; "
                        "save standard input to a file first"),
                    kExitUsage);
    integration_json::IntegrationDictionaries collector(input->dictionary_ids());
    if (input->num_batches() >= 0) {
      // The reader gives every batch of a file all of its dictionaries, so
      // the first batch has them; reading it by index leaves Next() alone.
      if (input->num_batches() > 0) {
        auto batch = input->ReadBatch(0);
        if (!batch.ok()) return Report(subject, batch.status());
        if (Status st = collector.Add(**batch); !st.ok()) return Report(subject, st);
      }
    } else {
      auto [first_pass, first_code] = OpenOrReport(options, {});
      if (!first_pass) return first_code;
      while (true) {
        auto batch = first_pass->Next();
        if (!batch.ok()) return Report(subject, batch.status());
        if (*batch == nullptr) break;
        if (Status st = collector.Add(**batch); !st.ok()) return Report(subject, st);
      }
    }
    dictionaries = collector.Take();
  }
  integration_json::IntegrationWriteOptions write_options;
  write_options.max_output_bytes = options.json_limits.max_output_bytes;
  write_options.max_column_bytes = options.json_limits.max_column_bytes;
  auto writer = integration_json::IntegrationJsonWriter::Open(
      &std::cout, input->schema(), input->dictionary_ids(), dictionaries, write_options);
  if (!writer.ok()) return Report(subject, writer.status());
  Progress progress("alkaid: to-json " + path);
  int64_t batches = 0, rows = 0;
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) return Report(subject, batch.status());
    if (*batch == nullptr) break;
    progress.Update(++batches, rows += (*batch)->num_rows(), input.get());
    Status st = (*writer)->WriteRecordBatch(**batch);
    if (!st.ok()) {
      std::cout << std::endl;
      if (st.code() == StatusCode::kCapacityError)
        st = Status::CapacityError(st.message(),
                                   " (raise --max-column-bytes or --max-output-bytes)");
      return Report(subject, st);
    }
  }
  progress.Finish();
  Status st = (*writer)->Close();
  std::cout << "\n" << std::flush;
  if (!st.ok()) return Report(subject, st);
  if (!std::cout) return Report(subject, Status::IOError("writing standard output failed"));
  return kExitOk;
}

}  // namespace

extern const Command kToJsonCommand = {
    "to-json", "Write the data as integration JSON to stdout", AddOptions, Run};

}  // namespace alkaid::cli
