// `alkaid flights grpc://HOST:PORT`: what a Flight server lists, one row per
// flight: path, rows, bytes (blank when the server does not know) and the
// schema's first columns.
#include <algorithm>
#include <iostream>

#include "command.h"
#include "report.h"

namespace alkaid::cli {

namespace {

struct Row {
  std::string path, rows, bytes, schema;
};

void AddOptions(CLI::App* cmd, Options* options) {
  AddOption(cmd, "URL", &options->input, "grpc://HOST:PORT or grpc+tls://HOST:PORT", kRequired);
  AddOption(cmd, "--prefix", &options->columns, "Only flights whose path starts with this");
  AddFlightClientOptions(cmd, &options->flight);
}

std::string DescriptorText(const flight::FlightDescriptor& d) {
  if (d.type != flight::FlightDescriptor::Type::kPath) return d.ToString();
  std::string out;
  for (const auto& part : d.path) out += (out.empty() ? "" : "/") + part;
  return out;
}

int Run(const Options& options) {
  auto conn = ConnectFlight(options.input, options.flight, /*need_path=*/false);
  if (!conn.ok()) return Report(options.input, conn.status());
  flight::Criteria criteria{options.columns};
  auto infos = (*conn)->client->ListFlights(criteria, (*conn)->call);
  if (!infos.ok()) return Report(options.input, infos.status());
  std::vector<Row> rows = {{"path", "rows", "bytes", "schema"}};
  for (const auto& info : *infos) {
    Row row{DescriptorText(info.descriptor),
            info.total_records >= 0 ? std::to_string(info.total_records) : "",
            info.total_bytes >= 0 ? std::to_string(info.total_bytes) : "", ""};
    auto schema = info.GetSchema();
    row.schema = schema.ok() ? SchemaSummary(**schema, 60) : "(" + schema.status().message() + ")";
    rows.push_back(std::move(row));
  }
  size_t w[3] = {0, 0, 0};
  for (const auto& r : rows) {
    w[0] = std::max(w[0], r.path.size());
    w[1] = std::max(w[1], r.rows.size());
    w[2] = std::max(w[2], r.bytes.size());
  }
  for (const auto& r : rows) {
    std::cout << r.path << std::string(w[0] - r.path.size() + 2, ' ')
              << std::string(w[1] - r.rows.size(), ' ') << r.rows << "  "
              << std::string(w[2] - r.bytes.size(), ' ') << r.bytes << "  " << r.schema << "\n";
  }
  return kExitOk;
}

}  // namespace

extern const Command kFlightsCommand = {
    "flights", "List the flights of a Flight server (path, rows, bytes, schema)", AddOptions, Run};

}  // namespace alkaid::cli
