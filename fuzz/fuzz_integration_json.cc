// libFuzzer target: arbitrary text through the integration JSON reader (what
// `alkaid from-json` and `validate --json` read). A document it accepts must
// hold fully valid batches and dictionaries; written back, it must read again
// to equal content, and writing that must give the same text again (the
// writer's output is a fixed point of read-then-write). Any other outcome is
// a silent wrong answer, found here as an abort.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "alkaid/integration_json/integration.h"
#include "alkaid/validate.h"

namespace {

using alkaid::integration_json::IntegrationFile;

void CheckValid(const IntegrationFile& file) {
  for (const auto& batch : file.batches) {
    for (const auto& column : batch->columns()) {
      if (!alkaid::ValidateArrayFull(*column).ok()) std::abort();
    }
  }
  for (const auto& [id, values] : file.dictionaries) {
    if (values == nullptr || !alkaid::ValidateArrayFull(*values).ok()) std::abort();
  }
}

void CheckSame(const IntegrationFile& a, const IntegrationFile& b) {
  if (!a.schema->Equals(*b.schema, /*check_metadata=*/true)) std::abort();
  if (a.batches.size() != b.batches.size()) std::abort();
  const auto options = alkaid::EqualOptions::Defaults().with_nans_equal();
  for (size_t i = 0; i < a.batches.size(); ++i) {
    if (!a.batches[i]->Equals(*b.batches[i], options)) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // A smaller depth than the default keeps deep documents cheap under ASan;
  // the limit itself is what is being tested either way.
  integration_json::IntegrationReadOptions options;
  options.max_recursion_depth = 24;
  auto file = integration_json::ParseIntegrationJson(text, options);
  if (!file.ok()) return 0;
  CheckValid(*file);
  auto written = integration_json::WriteIntegrationJson(*file);
  if (!written.ok()) std::abort();  // the writer takes whatever the reader built
  auto back = integration_json::ParseIntegrationJson(*written, options);
  if (!back.ok()) std::abort();
  CheckSame(*file, *back);
  auto again = integration_json::WriteIntegrationJson(*back);
  if (!again.ok() || *again != *written) std::abort();
  return 0;
}
