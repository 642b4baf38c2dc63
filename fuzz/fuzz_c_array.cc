// libFuzzer target: ArrowArray trees filled from arbitrary bytes, as another
// library might hand them over in-process, through the C Data Interface
// importer with full validation. The type comes from a fixed list covering
// every layout (the first byte picks it); lengths, offsets, null counts,
// buffer counts, children, dictionaries and every buffer's bytes come from
// the input (children get the length their parent needs unless the input
// says otherwise).
//
// The C ABI gives no buffer sizes: a consumer must trust the sizes that the
// type, length and offset imply, and the last offset (or a view's variadic
// size) for data buffers. The harness keeps those honest (every buffer holds
// 4 KiB, the last offset and variadic sizes stay within it) and leaves all
// else to the input: out-of-range offsets, views, type ids, run ends and
// dictionary indices, wrong buffer and child counts, NULL pointers. An import
// either fails or yields an array that ValidateArrayFull accepts; exported
// and imported again it compares equal; the producer's release runs exactly
// once, when the last imported buffer goes away.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "alkaid/c_data/bridge.h"
#include "alkaid/compare.h"
#include "alkaid/validate.h"
#include "fuzz_c_common.h"

namespace {

using namespace alkaid;

constexpr int64_t kBufferBytes = 4096;
constexpr int64_t kMaxSlots = 60;  // length and offset each; 121 x 32 bytes fit a buffer
// A child asked to be long enough for its parent may reach this (offset 0).
constexpr int64_t kMaxChildSlots = 2 * kMaxSlots;

const std::vector<DataTypePtr>& Types() {
  static const auto* types = new std::vector<DataTypePtr>{
      null(), boolean(), int8(), int32(), int64(), uint16(), float16(), float64(),
      decimal32(7, 2), decimal128(20, 3), decimal256(50, 4), date64(),
      timestamp(TimeUnit::kMicro, "UTC"), month_day_nano_interval(), day_time_interval(),
      fixed_size_binary(3), binary(), utf8(), large_binary(), large_utf8(), binary_view(),
      utf8_view(), list(int32()), large_list(utf8()), list_view(int16()),
      large_list_view(utf8()), fixed_size_list(int8(), 2),
      struct_({field("a", int32()), field("b", utf8())}), map(utf8(), int32()),
      sparse_union({field("i", int32()), field("s", utf8())}, {3, 7}),
      dense_union({field("i", int32()), field("s", utf8_view())}, {0, 5}),
      dictionary(int8(), utf8()), dictionary(uint32(), list(int64())),
      run_end_encoded(int16(), utf8()), run_end_encoded(int64(), int32()),
      list(struct_({field("x", binary_view()), field("y", list(boolean()))}))};
  return *types;
}

// What one node owns.
struct Owned : OwnedLinks<ArrowArray> {
  std::vector<std::vector<uint8_t>> blocks;  // the buffers' memory
  std::vector<const void*> buffers;
};

// Writes `value` as a `width`-byte integer at element `index` of `block`.
void PutAt(std::vector<uint8_t>* block, int width, int64_t index, int64_t value) {
  if ((index + 1) * width > static_cast<int64_t>(block->size())) return;
  if (width == 4) {
    const auto v = static_cast<int32_t>(value);
    std::memcpy(block->data() + index * 4, &v, 4);
  } else {
    std::memcpy(block->data() + index * 8, &value, 8);
  }
}

// The slots a child must have for its parent to be valid (-1: any).
// Random lengths would almost never line up, and then struct, union,
// fixed-size list and run-end inputs would stop at the first length check.
int64_t ChildSlots(const DataType& parent, int64_t parent_end, int64_t first_child_length,
                   int64_t child) {
  switch (parent.id()) {
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
      return parent_end;
    case TypeId::kFixedSizeList:
      return parent_end * static_cast<const FixedSizeListType&>(parent).list_size();
    case TypeId::kRunEndEncoded:
      return child == 0 ? -1 : first_child_length;  // as many values as run ends
    default:
      return -1;
  }
}

// One array of `type` and its children and dictionary. `depth` bounds the
// harness's own recursion (the types above nest 4 deep at most). Unless the
// input says otherwise, the array has `slots` slots when that is not -1.
ArrowArray* Build(FuzzBytes& in, const DataTypePtr& type, int depth, int64_t slots = -1) {
  auto* node = new ArrowArray{};
  auto* owned = new Owned;
  ++live_c_nodes;
  const uint8_t shape = in.Next();
  const uint8_t faults = in.Next();
  node->length = in.Next() % (kMaxSlots + 1);
  node->offset = (shape & 1) != 0 ? in.Next() % (kMaxSlots + 1) : 0;
  if (slots >= 0 && (shape & 4) == 0) {
    node->length = std::min(slots, kMaxChildSlots);
    node->offset = 0;
  }
  node->null_count = (shape & 2) != 0 ? -1 : in.Next() % (kMaxSlots + 2);
  const int64_t end = node->length + node->offset;

  const DataType& storage = type->id() == TypeId::kExtension
                                ? *static_cast<const ExtensionType&>(*type).storage_type()
                                : *type;
  const DataTypeLayout& layout = storage.layout();
  const int64_t n_variadic = layout.variadic_data ? in.Next() % 3 : 0;
  int64_t n_buffers = static_cast<int64_t>(layout.buffers.size()) +
                      (layout.variadic_data ? n_variadic + 1 : 0);
  if ((faults & 1) != 0) n_buffers += (faults & 2) != 0 ? 1 : -1;  // a wrong count
  if (n_buffers < 0) n_buffers = 0;
  for (int64_t i = 0; i < n_buffers; ++i) {
    const bool absent = (faults & 4) != 0 && in.Next() % 4 == 0;
    if (absent) {
      owned->buffers.push_back(nullptr);
      continue;
    }
    std::vector<uint8_t> block(static_cast<size_t>(kBufferBytes), 0);
    in.Fill(block.data(), in.Next() * 8);  // up to 2 KiB of the input, the rest zeros
    if (i < static_cast<int64_t>(layout.buffers.size())) {
      const BufferSpec& spec = layout.buffers[static_cast<size_t>(i)];
      // The last offset sizes the data buffer: keep it within the 4 KiB
      // (or negative, which the importer must refuse).
      if (spec.kind == BufferSpec::kOffsets && spec.offsets_plus_one) {
        const int64_t last = (faults & 8) != 0 ? -1 : (in.Next() * 17) % (kBufferBytes + 1);
        PutAt(&block, spec.byte_width, end, last);
      }
    } else if (layout.variadic_data && i == n_buffers - 1) {
      // As many sizes as n_buffers claims data buffers (a wrong count too).
      const int64_t claimed = n_buffers - static_cast<int64_t>(layout.buffers.size()) - 1;
      for (int64_t k = 0; k < claimed; ++k) {
        const int64_t size = (faults & 8) != 0 ? -5 : (in.Next() * 17) % (kBufferBytes + 1);
        PutAt(&block, 8, k, size);
      }
    }
    owned->blocks.push_back(std::move(block));
    owned->buffers.push_back(owned->blocks.back().data());
  }

  int64_t n_children = storage.num_fields();
  if ((faults & 16) != 0) n_children = n_children > 0 ? n_children - 1 : 1;  // a wrong count
  for (int64_t i = 0; i < n_children; ++i) {
    const bool missing = (faults & 32) != 0 && i == 0;
    const DataTypePtr child_type =
        i < storage.num_fields() ? storage.field(static_cast<int>(i))->type() : int32();
    const int64_t first_length = owned->children.empty() || owned->children[0] == nullptr
                                     ? -1
                                     : owned->children[0]->length;
    const int64_t child_slots = ChildSlots(storage, end, first_length, i);
    owned->children.push_back(missing || depth > 6 ? nullptr
                                                   : Build(in, child_type, depth + 1, child_slots));
  }
  if (storage.id() == TypeId::kDictionary && (faults & 64) == 0 && depth <= 6) {
    owned->dictionary =
        Build(in, static_cast<const DictionaryType&>(storage).value_type(), depth + 1);
  }
  node->n_buffers = n_buffers;
  node->buffers = owned->buffers.empty() ? nullptr : owned->buffers.data();
  node->n_children = n_children;
  node->children = owned->children.empty() ? nullptr : owned->children.data();
  node->dictionary = owned->dictionary;
  node->release = ReleaseNode<Owned, ArrowArray>;
  node->private_data = owned;
  return node;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto& types = Types();
  const DataTypePtr& type = types[data[0] % types.size()];
  FuzzBytes in(data + 1, size - 1);
  ArrowArray* root = Build(in, type, 0);
  {
    auto imported = c_data::ImportArray(root, type);
    // Import takes the struct over, success or not: the caller's copy is
    // marked released and must not be released again.
    if (root->release != nullptr) std::abort();
    if (imported.ok()) {
      if (!ValidateArrayFull(**imported).ok()) std::abort();
      ArrowArray again{};
      if (!c_data::ExportArray(**imported, &again).ok()) std::abort();
      auto back = c_data::ImportArray(&again, type);
      if (!back.ok()) std::abort();
      if (!ArrayEquals(**back, **imported, EqualOptions::Defaults().with_nans_equal())) {
        std::abort();
      }
    }
  }
  // Every imported buffer is gone: the producer's release has run, once.
  if (live_c_nodes != 0) std::abort();
  delete root;
  return 0;
}
