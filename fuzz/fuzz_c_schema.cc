// libFuzzer target: ArrowSchema trees built from arbitrary bytes, as another
// library might hand them over in-process, through the C Data Interface
// importer. Format strings and names are arbitrary text; flags, child counts,
// dictionaries and metadata come from the bytes, and so do the faults an
// importer must refuse rather than follow: a NULL format or children array, a
// NULL or already released child, negative metadata counts and lengths.
// Metadata lengths are otherwise exact: the C ABI gives no total size, so
// an overlong length cannot be detected by any consumer.
//
// Every import must consume the struct (release called once on the whole
// tree: ASan and LeakSanitizer see the rest). What it accepts is exported
// again and re-imported, and must come back equal, metadata included.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "alkaid/c_data/bridge.h"
#include "fuzz_c_common.h"

namespace {

// What one node owns.
struct Owned : OwnedLinks<ArrowSchema> {
  std::string format, name;
  std::vector<uint8_t> metadata;
};

void PutInt32(std::vector<uint8_t>* out, int32_t v) {
  const auto* p = reinterpret_cast<const uint8_t*>(&v);
  out->insert(out->end(), p, p + 4);
}

std::vector<uint8_t> Metadata(FuzzBytes& in, int mode) {
  std::vector<uint8_t> out;
  if (mode == 2) {
    PutInt32(&out, -1 - static_cast<int32_t>(in.Next()));  // a negative pair count
    return out;
  }
  const int pairs = 1 + in.Next() % 3;
  PutInt32(&out, pairs);
  for (int i = 0; i < pairs; ++i) {
    for (int half = 0; half < 2; ++half) {
      const std::string s = in.Text();
      const bool negative = mode == 3 && i == pairs - 1 && half == 1;
      PutInt32(&out, negative ? -2 : static_cast<int32_t>(s.size()));
      if (!negative) out.insert(out.end(), s.begin(), s.end());
    }
  }
  return out;
}

// One node and (budget allowing) its children and dictionary.
ArrowSchema* Build(FuzzBytes& in, int* budget) {
  auto* node = new ArrowSchema{};
  auto* owned = new Owned;
  ++live_c_nodes;
  --*budget;
  owned->format = in.Text();
  owned->name = in.Text();
  const uint8_t shape = in.Next();
  const uint8_t faults = in.Next();
  node->flags = shape & 7;
  const int n_children = *budget > 0 ? (shape >> 3) & 3 : 0;
  const bool has_dictionary = *budget > 0 && ((shape >> 5) & 1) != 0;
  const int metadata_mode = (shape >> 6) & 3;  // 0 none, 1 exact, 2 and 3 negative
  if (metadata_mode != 0) owned->metadata = Metadata(in, metadata_mode);
  for (int i = 0; i < n_children; ++i) {
    ArrowSchema* child = (faults & 2) != 0 && i == n_children - 1 ? nullptr : Build(in, budget);
    if (child != nullptr && (faults & 16) != 0 && i == 0) {
      child->release(child);  // handed over already released
    }
    owned->children.push_back(child);
  }
  if (has_dictionary) owned->dictionary = Build(in, budget);
  node->format = (faults & 4) != 0 ? nullptr : owned->format.c_str();
  node->name = (faults & 8) != 0 ? nullptr : owned->name.c_str();
  node->metadata = owned->metadata.empty() ? nullptr
                                           : reinterpret_cast<const char*>(owned->metadata.data());
  node->n_children = n_children;
  node->children = (faults & 1) != 0 && n_children > 0 ? nullptr : owned->children.data();
  node->dictionary = owned->dictionary;
  node->release = ReleaseNode<Owned, ArrowSchema>;
  node->private_data = owned;
  return node;
}

void Consumed(ArrowSchema* root) {
  // Import releases what it is given, success or not; nothing is left.
  if (root->release != nullptr || live_c_nodes != 0) std::abort();
  delete root;
}

// import(root); what it accepts goes through export(value, struct) and
// import again, and must come back equal, metadata included.
template <typename Import, typename Export>
void RoundTrip(ArrowSchema* root, const Import& import, const Export& exporter) {
  auto imported = import(root);
  Consumed(root);
  if (!imported.ok()) return;
  ArrowSchema again{};
  if (!exporter(**imported, &again).ok()) std::abort();
  auto back = import(&again);
  if (!back.ok() || !(*back)->Equals(**imported, /*check_metadata=*/true)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace alkaid::c_data;
  if (size == 0) return 0;
  FuzzBytes in(data + 1, size - 1);
  int budget = 100;  // nodes: enough to go past the depth limit in a chain
  ArrowSchema* root = Build(in, &budget);
  switch (data[0] % 3) {
    case 0:
      RoundTrip(root, ImportType, ExportType);
      break;
    case 1:
      RoundTrip(root, ImportField, ExportField);
      break;
    default:
      RoundTrip(root, ImportSchema, ExportSchema);
      break;
  }
  return 0;
}
