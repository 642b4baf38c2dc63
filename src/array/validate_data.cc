// The data pass of full validation: O(length) per node, reading values
// (offsets, UTF-8, views, union type ids, dictionary indices, run ends, null
// counts against bitmaps). It runs only on trees the structural pass
// (validate.cc), or the IPC loader, has already accepted, so it reads any
// byte the layout promises without re-checking sizes.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "alkaid/bitmap.h"
#include "alkaid/utf8.h"
#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "validator.h"

namespace alkaid::internal {
namespace {

std::string HexOf(const uint8_t* bytes, int n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += kDigits[bytes[i] >> 4];
    out += kDigits[bytes[i] & 15];
  }
  return out;
}

// ---------------------------------------------------------------------------
// Data pass: O(length) per node. Loops accumulate a flag without branching so
// the compiler can vectorize them; only after a failure is the data scanned
// again to name the first offending slot.

class DataCheck : public NodeCheck {
 public:
  DataCheck(Validator* validator, const ArrayData& data, const DataType& type)
      : NodeCheck(validator, data, type), nulls_(NullBitmap(data, type)) {}

  Status Run() {
    ALKAID_RETURN_NOT_OK(CheckNullCount());
    ALKAID_RETURN_NOT_OK(VisitTypeInline(type_, this));
    return Recurse();
  }

  template <typename T>
  Status Visit(const T& type) {
    if constexpr (is_base_binary_v<T>) {
      using Offset = typename T::offset_type;
      ALKAID_RETURN_NOT_OK(CheckOffsets<Offset>(BufferSize(data_, 2), "the data buffer", "bytes"));
      if (type.is_utf8()) return CheckUtf8Slots<Offset>();
    } else if constexpr (is_binary_view_v<T>) {
      return CheckViews(std::is_same_v<T, StringViewType>);
    } else if constexpr (is_var_list_v<T>) {
      ALKAID_RETURN_NOT_OK(CheckOffsets<typename T::offset_type>(data_.child_data[0]->length,
                                                                 "the child array", "slots"));
      if constexpr (std::is_same_v<T, MapType>) return CheckMapKeysHaveNoNulls();
    } else if constexpr (is_list_view_v<T>) {
      return CheckListViews<typename T::offset_type>();
    } else if constexpr (is_union_v<T>) {
      return CheckUnion(type);
    } else if constexpr (std::is_same_v<T, DictionaryType>) {
      return VisitIndexType(*type.index_type(), [this](auto zero) -> Status {
        return CheckDictionaryIndices<decltype(zero)>();
      });
    } else if constexpr (std::is_same_v<T, RunEndEncodedType>) {
      return VisitRunEndType(*type.run_end_type(), [this](auto zero) -> Status {
        return CheckRunEnds<decltype(zero)>();
      });
    }
    return Status::OK();
  }

 private:
  Status CheckNullCount() const {
    if (!HasValiditySlot(type_) || !data_.buffers[0] || data_.null_count < 0) return Status::OK();
    int64_t nulls = data_.length - SetBitsInBitmap();
    if (nulls == data_.null_count) return Status::OK();
    return Fail("null_count is ", data_.null_count, " but the validity bitmap marks ", nulls,
                " of ", data_.length, " slots as null");
  }

  // Set bits of the validity bitmap in [offset, offset + length). Bitmaps of
  // small batches fit one word: read just their bytes (the structural pass
  // guaranteed that many) instead of the general partial-word path.
  int64_t SetBitsInBitmap() const {
    const uint8_t* bits = data_.buffers[0]->data();
    const int64_t end = data_.offset + data_.length;
    if (end <= 64) {
      uint64_t word = 0;
      const int64_t bytes = BitmapBytes(end);
      for (int64_t i = 0; i < bytes; ++i) word |= uint64_t{bits[i]} << (8 * i);
      word >>= data_.offset;
      if (data_.length < 64) word &= (uint64_t{1} << data_.length) - 1;
      return bit_util::PopcountWord(word);
    }
    return bit_util::CountSetBits(bits, data_.offset, data_.length);
  }

  // Offsets [offset, offset + length] of binary, list and map arrays: the
  // first is >= 0, none decreases, the last stays within `limit`.
  template <typename O>
  Status CheckOffsets(int64_t limit, const char* limit_name, const char* unit) const {
    const uint8_t* offsets = BufferBytes(data_, 1) + data_.offset * static_cast<int64_t>(sizeof(O));
    if (data_.length == 0) {
      // An empty array may have no offsets at all; the one it has, if any,
      // must still be a valid offset.
      const int64_t available = BufferSize(data_, 1) / static_cast<int64_t>(sizeof(O));
      if (available > data_.offset && LoadAt<O>(offsets, 0) < 0)
        return Fail("offset[0] = ", LoadAt<O>(offsets, 0), Physical(0),
                    " is negative (offsets must be >= 0)");
      return Status::OK();
    }
    const int64_t count = data_.length + 1;
    const O first = LoadAt<O>(offsets, 0);
    if (first < 0)
      return Fail("offset[0] = ", first, Physical(0), " is negative (offsets must be >= 0)");
    if (!(FactsWorthLookingUp() && KnownOrdered<O>(offsets, count)) &&
        AnyOutOfOrder<O, false>(offsets, count)) {
      for (int64_t i = 1; i < count; ++i) {
        O prev = LoadAt<O>(offsets, i - 1), cur = LoadAt<O>(offsets, i);
        if (cur < prev)
          return Fail("offset[", i, "] = ", cur, Physical(i), " is less than offset[", i - 1,
                      "] = ", prev, " (offsets must not decrease)");
      }
    }
    const O last = LoadAt<O>(offsets, data_.length);
    if (static_cast<int64_t>(last) > limit)
      return Fail("offset[", data_.length, "] = ", last, Physical(data_.length),
                  " is past the end of ", limit_name, " (", limit, " ", unit, ")");
    return Status::OK();
  }

  // Whether to ask for facts the reader found (validate_internal.h): only
  // when it found some, and for arrays long enough that reading their bytes
  // costs more than the lookup.
  bool FactsWorthLookingUp() const {
    constexpr int64_t kMinLength = 64;
    return data_.length >= kMinLength && validator_->has_scanned();
  }

  // Whether the reader scanned these `count` offsets, as part of a buffer
  // whose values it found ordered from its first (>= 0) on.
  template <typename O>
  bool KnownOrdered(const uint8_t* offsets, int64_t count) const {
    const uint8_t* base = nullptr;
    const uint8_t facts = validator_->ScannedFacts(offsets, count * int64_t{sizeof(O)}, &base);
    const uint8_t ordered = sizeof(O) == 4 ? internal::kFactOrdered32 : internal::kFactOrdered64;
    return (facts & ordered) != 0 && (offsets - base) % int64_t{sizeof(O)} == 0;
  }

  // What the reader found about the whole character buffer, when it scanned
  // it (kFactAscii, kFactUtf8), else 0.
  uint8_t KnownCharFacts() const {
    const uint8_t* chars = BufferBytes(data_, 2);
    const uint8_t* base = nullptr;
    const uint8_t facts = validator_->ScannedFacts(chars, BufferSize(data_, 2), &base);
    return base == chars ? facts : 0;
  }

  // Whether no offset of slots (a, b) lands inside a character of chars
  // [.., end): each must be the first byte of one.
  template <typename O>
  static bool NoOffsetSplitsACharacter(const uint8_t* offsets, const uint8_t* chars, int64_t a,
                                       int64_t b, int64_t end) {
    uint8_t splits_character = 0;
    for (int64_t k = a + 1; k < b; ++k) {
      const int64_t pos = LoadAt<O>(offsets, k);
      const uint8_t byte = pos < end ? chars[pos] : 0;
      splits_character |= static_cast<uint8_t>(IsUtf8ContinuationByte(byte));
    }
    return splits_character == 0;
  }

  // Whether slots [a, b) hold valid UTF-8. Checking the whole byte range at
  // once is only sound if no character straddles two slots, hence the check
  // that each inner offset lands on the first byte of a character.
  template <typename O>
  static bool SlotRangeIsUtf8(const uint8_t* offsets, const uint8_t* chars, int64_t a, int64_t b) {
    const int64_t begin = LoadAt<O>(offsets, a);
    const int64_t end = LoadAt<O>(offsets, b);
    bool ascii_only = false;
    if (FindInvalidUtf8(chars + begin, end - begin, &ascii_only) >= 0) return false;
    if (ascii_only) return true;  // no continuation bytes, so nothing to split
    return NoOffsetSplitsACharacter<O>(offsets, chars, a, b, end);
  }

  // The same when all `chars_size` bytes of chars are known to be valid
  // UTF-8 (scanned): a range of them is valid exactly when it starts and
  // ends on character boundaries, so only the offsets need looking at.
  template <typename O>
  static bool SlotRangeOfValidTextIsUtf8(const uint8_t* offsets, const uint8_t* chars,
                                         int64_t chars_size, int64_t a, int64_t b) {
    const int64_t begin = LoadAt<O>(offsets, a);
    const int64_t end = LoadAt<O>(offsets, b);
    if (begin == end) return true;
    auto inside = [&](int64_t pos) {
      return pos < chars_size && IsUtf8ContinuationByte(chars[pos]);
    };
    if (inside(begin) || inside(end)) return false;
    return NoOffsetSplitsACharacter<O>(offsets, chars, a, b, end);
  }

  template <typename O>
  Status CheckUtf8Slots() const {
    if (data_.length == 0) return Status::OK();
    if (FactsWorthLookingUp()) {
      const uint8_t known = KnownCharFacts();
      if ((known & internal::kFactAscii) != 0) return Status::OK();  // every range is ASCII
      if ((known & internal::kFactUtf8) != 0) return CheckUtf8SlotsOf<O, true>();
    }
    return CheckUtf8SlotsOf<O, false>();
  }

  // kValidText: all bytes of the data buffer are known to be valid UTF-8.
  template <typename O, bool kValidText>
  Status CheckUtf8SlotsOf() const {
    const uint8_t* offsets = BufferBytes(data_, 1) + data_.offset * static_cast<int64_t>(sizeof(O));
    const uint8_t* chars = BufferBytes(data_, 2);
    auto range_is_utf8 = [&](int64_t a, int64_t b) {
      if constexpr (kValidText) {
        return SlotRangeOfValidTextIsUtf8<O>(offsets, chars, BufferSize(data_, 2), a, b);
      } else {
        return SlotRangeIsUtf8<O>(offsets, chars, a, b);
      }
    };
    // First try every slot at once, null ones included: when the whole range
    // decodes and no offset splits a character, each slot is valid UTF-8
    // whatever it holds. Only when that fails do null slots need excluding
    // (they may hold any bytes), which costs a call per run of valid slots.
    bool ok = range_is_utf8(0, data_.length);
    if (!ok && nulls_ != nullptr) {
      ok = true;
      // Runs of 64 valid slots take the fast path; mixed words go slot by slot.
      int64_t base = 0;
      bit_util::VisitWords(nulls_, data_.offset, data_.length, [&](uint64_t word, int64_t n) {
        if (ok) {
          const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
          if (word == all) {
            ok = range_is_utf8(base, base + n);
          } else {
            for (; word != 0 && ok; word &= word - 1) {
              int64_t i = base + __builtin_ctzll(word);
              ok = range_is_utf8(i, i + 1);
            }
          }
        }
        base += n;
      });
    }
    if (ok) return Status::OK();
    for (int64_t i = 0; i < data_.length; ++i) {
      if (nulls_ && !bit_util::GetBit(nulls_, data_.offset + i)) continue;
      const int64_t begin = LoadAt<O>(offsets, i);
      const int64_t end = LoadAt<O>(offsets, i + 1);
      const int64_t bad = FindInvalidUtf8(chars + begin, end - begin);
      if (bad >= 0)
        return Fail("slot ", i, Physical(i), " is not valid UTF-8: malformed sequence at byte ",
                    bad, " of the value (byte ", begin + bad, " of the data buffer)");
    }
    return Fail("is not valid UTF-8");  // unreachable: the fast path and the scan agree
  }

  // Calls visit(i) for each non-null slot in order until it returns false.
  template <typename Visit>
  void ForEachValidSlot(Visit&& visit) const {
    if (nulls_ == nullptr) {
      for (int64_t i = 0; i < data_.length; ++i) {
        if (!visit(i)) return;
      }
      return;
    }
    bool more = true;
    bit_util::VisitSetBits(nulls_, data_.offset, data_.length, [&](int64_t i) {
      if (more) more = visit(i);
    });
  }

  // Only non-null views are checked: the validity bitmap masks the others,
  // which may hold any bytes. UTF-8 costs O(min(sum of view lengths, data
  // buffer bytes) + views): views may overlap without limit, so when they
  // cover more bytes than their buffers hold, each referenced data buffer is
  // decoded once as a whole (or, when it holds malformed bytes somewhere,
  // once per maximal run of bytes covered by views), and then every view only
  // has to start and end on a character boundary of that decoded text.
  Status CheckViews(bool utf8) const {
    const uint8_t* views = BufferBytes(data_, 1) + data_.offset * int64_t{16};
    const size_t variadic = data_.buffers.size() - 2;
    std::vector<const uint8_t*> bytes(variadic);
    std::vector<int64_t> sizes(variadic);
    for (size_t b = 0; b < variadic; ++b) {
      bytes[b] = BufferBytes(data_, b + 2);
      sizes[b] = BufferSize(data_, b + 2);
    }
    // Data buffers some non-null view points into, and the bytes those views
    // cover in all (UTF-8 only).
    std::vector<uint8_t> referenced(utf8 ? variadic : 0);
    int64_t view_bytes = 0;
    Status result;
    ForEachValidSlot([&](int64_t i) {
      BinaryViewValue view;
      std::memcpy(&view, views + i * 16, sizeof(view));
      const int32_t size = view.size();
      if (size < 0) {
        result = Fail("view of slot ", i, Physical(i), " has negative size ", size);
        return false;
      }
      if (size <= BinaryViewValue::kInlineSize) {
        for (int k = size; k < BinaryViewValue::kInlineSize; ++k) {
          if (view.inlined.data[k] != 0) {
            result = Fail("inline view of slot ", i, Physical(i), " has size ", size,
                          " but byte ", k, " of its inline data is ",
                          static_cast<int>(view.inlined.data[k]),
                          " (bytes after an inline value must be zero)");
            return false;
          }
        }
        if (utf8) {
          const int64_t bad = FindInvalidUtf8(view.inlined.data, size);
          if (bad >= 0) {
            result = Fail("slot ", i, Physical(i),
                          " is not valid UTF-8: malformed sequence at byte ", bad,
                          " of the value (inline)");
            return false;
          }
        }
        return true;
      }
      const int32_t index = view.ref.buffer_index;
      const int32_t start = view.ref.offset;
      if (index < 0 || static_cast<uint64_t>(index) >= variadic) {
        result = Fail("view of slot ", i, Physical(i), " refers to data buffer ", index,
                      " but there are ", variadic, " data buffers");
        return false;
      }
      if (start < 0 || start + static_cast<int64_t>(size) > sizes[index]) {
        result = Fail("view of slot ", i, Physical(i), " covers bytes [", start, ", ",
                      start + static_cast<int64_t>(size), ") outside data buffer ", index,
                      " of ", sizes[index], " bytes");
        return false;
      }
      if (std::memcmp(view.ref.prefix, bytes[index] + start, BinaryViewValue::kPrefixSize) != 0) {
        result = Fail("view of slot ", i, Physical(i), " has prefix ",
                      HexOf(view.ref.prefix, BinaryViewValue::kPrefixSize),
                      " but its data starts with ",
                      HexOf(bytes[index] + start, BinaryViewValue::kPrefixSize),
                      " (the prefix must copy the first 4 bytes)");
        return false;
      }
      if (utf8) {
        if (IsUtf8ContinuationByte(bytes[index][start])) {
          result = ViewNotUtf8(i, index, start, start);
          return false;
        }
        referenced[static_cast<size_t>(index)] = 1;
        view_bytes = std::min(view_bytes + size, std::numeric_limits<int64_t>::max() / 2);
      }
      return true;
    });
    if (!result.ok() || !utf8) return result;
    int64_t buffer_bytes = 0;
    for (size_t b = 0; b < variadic; ++b) buffer_bytes += referenced[b] ? sizes[b] : 0;
    // Decoding each view on its own is cheaper when the views overlap little
    // (a slice of a few rows over a large buffer); the buffer-wide method
    // when they overlap a lot. Either way the cost is at most the smaller.
    if (view_bytes <= buffer_bytes) return CheckEachOutOfLineView(views, bytes);
    return CheckViewsUtf8(views, bytes, sizes, referenced);
  }

  Status CheckEachOutOfLineView(const uint8_t* views, const std::vector<const uint8_t*>& bytes) const {
    Status result;
    ForEachValidSlot([&](int64_t i) {
      BinaryViewValue view;
      std::memcpy(&view, views + i * 16, sizeof(view));
      if (view.is_inline()) return true;
      const int64_t start = view.ref.offset;
      const uint8_t* value = bytes[static_cast<size_t>(view.ref.buffer_index)] + start;
      const int64_t bad = FindInvalidUtf8(value, view.size());
      if (bad < 0) return true;
      result = ViewNotUtf8(i, view.ref.buffer_index, start, start + bad);
      return false;
    });
    return result;
  }

  [[gnu::cold]] Status ViewNotUtf8(int64_t i, int32_t buffer, int64_t start, int64_t bad) const {
    return Fail("slot ", i, Physical(i), " is not valid UTF-8: malformed sequence at byte ",
                bad - start, " of the value (byte ", bad, " of data buffer ", buffer, ")");
  }

  // The second half of CheckViews for utf8_view, after every non-null view
  // passed the checks above (in bounds, starting on a non-continuation byte).
  Status CheckViewsUtf8(const uint8_t* views, const std::vector<const uint8_t*>& bytes,
                        const std::vector<int64_t>& sizes,
                        const std::vector<uint8_t>& referenced) const {
    const size_t variadic = bytes.size();
    // Per referenced buffer, the ranges whose decoding the views may rely on:
    // the whole buffer when it decodes, else the merged ranges of its views.
    std::vector<std::vector<std::pair<int64_t, int64_t>>> ranges(variadic);
    bool any_merged = false;
    for (size_t b = 0; b < variadic; ++b) {
      if (!referenced[b]) continue;
      if (FindInvalidUtf8(bytes[b], sizes[b]) < 0) {
        ranges[b].emplace_back(0, sizes[b]);
      } else {
        any_merged = true;  // filled below
      }
    }
    auto view_at = [&](int64_t i) {
      BinaryViewValue view;
      std::memcpy(&view, views + i * 16, sizeof(view));
      return view;
    };
    if (any_merged) {
      // Buffers that decode as a whole are marked so that the collection
      // below leaves them alone.
      std::vector<uint8_t> whole(variadic);
      for (size_t b = 0; b < variadic; ++b) whole[b] = referenced[b] && !ranges[b].empty();
      ForEachValidSlot([&](int64_t i) {
        const BinaryViewValue view = view_at(i);
        if (view.is_inline()) return true;
        const auto b = static_cast<size_t>(view.ref.buffer_index);
        if (!whole[b]) ranges[b].emplace_back(view.ref.offset, view.ref.offset + int64_t{view.size()});
        return true;
      });
      for (size_t b = 0; b < variadic; ++b) {
        if (whole[b] || ranges[b].empty()) continue;
        auto& r = ranges[b];
        std::sort(r.begin(), r.end());
        size_t out = 0;
        for (size_t k = 1; k < r.size(); ++k) {
          if (r[k].first <= r[out].second) {
            r[out].second = std::max(r[out].second, r[k].second);
          } else {
            r[++out] = r[k];
          }
        }
        r.resize(out + 1);
        for (const auto& [first, last] : r) {
          const int64_t bad = FindInvalidUtf8(bytes[b] + first, last - first);
          if (bad < 0) continue;
          // Every view containing the malformed byte is itself malformed:
          // it starts on a character boundary before it (or at it), so it
          // decodes in step with the range up to there.
          const int64_t at = first + bad;
          Status found;
          ForEachValidSlot([&](int64_t i) {
            const BinaryViewValue view = view_at(i);
            if (view.is_inline() || static_cast<size_t>(view.ref.buffer_index) != b) return true;
            const int64_t s = view.ref.offset;
            if (s <= at && at < s + view.size()) {
              found = ViewNotUtf8(i, static_cast<int32_t>(b), s, at);
              return false;
            }
            return true;
          });
          return found.ok() ? Fail("data buffer ", b, " is not valid UTF-8 at byte ", at) : found;
        }
      }
    }
    // Each view must end on a character boundary of the decoded range that
    // holds it: at the range's end, or before a byte that starts a character.
    Status result;
    ForEachValidSlot([&](int64_t i) {
      const BinaryViewValue view = view_at(i);
      if (view.is_inline()) return true;
      const auto b = static_cast<size_t>(view.ref.buffer_index);
      const int64_t s = view.ref.offset;
      const int64_t e = s + view.size();
      const auto& r = ranges[b];
      // The range holding [s, e): the last one starting at or before s.
      auto it = std::upper_bound(r.begin(), r.end(), std::make_pair(s, INT64_MAX));
      const int64_t range_end = std::prev(it)->second;
      if (e < range_end && IsUtf8ContinuationByte(bytes[b][e])) {
        int64_t lead = e - 1;  // the decoded range puts a lead byte within 3 bytes
        while (lead > s && IsUtf8ContinuationByte(bytes[b][lead])) --lead;
        result = ViewNotUtf8(i, static_cast<int32_t>(b), s, lead);
        return false;
      }
      return true;
    });
    return result;
  }

  // Every slot, null or not, must describe a range inside the child.
  template <typename O>
  Status CheckListViews() const {
    const int64_t child_length = data_.child_data[0]->length;
    const int64_t skip = data_.offset * static_cast<int64_t>(sizeof(O));
    const uint8_t* offsets = BufferBytes(data_, 1) + skip;
    const uint8_t* sizes = BufferBytes(data_, 2) + skip;
    for (int64_t i = 0; i < data_.length; ++i) {
      const int64_t start = LoadAt<O>(offsets, i);
      const int64_t size = LoadAt<O>(sizes, i);
      if (start < 0 || start > child_length)
        return Fail("slot ", i, Physical(i), ": offset ", start,
                    " is outside the child array of length ", child_length);
      if (size < 0) return Fail("slot ", i, Physical(i), ": size ", size, " is negative");
      if (size > child_length - start)
        return Fail("slot ", i, Physical(i), ": offset ", start, " + size ", size,
                    " is past the end of the child array of length ", child_length);
    }
    return Status::OK();
  }

  std::string DeclaredCodes(const UnionType& type) const {
    std::string out = "[";
    for (size_t i = 0; i < type.type_codes().size(); ++i) {
      if (i) out += ", ";
      out += std::to_string(type.type_codes()[i]);
    }
    return out + "]";
  }

  Status CheckUnion(const UnionType& type) const {
    // Indexed by the raw byte so negative ids land in the undeclared half.
    int16_t child_of[256];
    for (int code = 0; code < 256; ++code) {
      child_of[code] = code <= UnionType::kMaxTypeCode
                           ? static_cast<int16_t>(type.child_of_code()[static_cast<size_t>(code)])
                           : int16_t{-1};
    }
    const uint8_t* ids = BufferBytes(data_, 0) + data_.offset;
    uint8_t undeclared = 0;
    for (int64_t i = 0; i < data_.length; ++i)
      undeclared |= static_cast<uint8_t>(child_of[ids[i]] < 0);
    if (undeclared != 0) {
      for (int64_t i = 0; i < data_.length; ++i) {
        if (child_of[ids[i]] < 0)
          return Fail("slot ", i, Physical(i), ": type id ",
                      static_cast<int>(static_cast<int8_t>(ids[i])),
                      " is not declared by the union (type codes ", DeclaredCodes(type), ")");
      }
    }
    if (type.mode() != UnionMode::kDense) return Status::OK();
    const uint8_t* offsets = BufferBytes(data_, 1) + data_.offset * int64_t{4};
    for (int64_t i = 0; i < data_.length; ++i) {
      const int child = child_of[ids[i]];
      const int32_t offset = LoadAt<int32_t>(offsets, i);
      const int64_t child_length = data_.child_data[static_cast<size_t>(child)]->length;
      if (offset < 0 || offset >= child_length)
        return Fail("slot ", i, Physical(i), ": dense union offset ", offset, " is outside child ",
                    child, " ('", type.field(child)->name(), "') of length ", child_length);
    }
    return Status::OK();
  }

  template <typename I>
  Status CheckDictionaryIndices() const {
    const int64_t dictionary_length = data_.dictionary->length;
    const uint8_t* indices = BufferBytes(data_, 1) + data_.offset * static_cast<int64_t>(sizeof(I));
    // A valid index, seen as unsigned, is below `bound`: negative signed
    // indices turn into huge unsigned ones. Comparing at the index's own
    // width keeps the loop vectorizable.
    using U = std::make_unsigned_t<I>;
    constexpr uint64_t kTypeLimit = std::is_signed_v<I>
                                        ? uint64_t{1} << (8 * sizeof(I) - 1)
                                        : static_cast<uint64_t>(std::numeric_limits<U>::max());
    if (!std::is_signed_v<I> && static_cast<uint64_t>(dictionary_length) > kTypeLimit)
      return Status::OK();  // every value of the index type is in range
    const U bound = static_cast<U>(std::min(static_cast<uint64_t>(dictionary_length), kTypeLimit));
    auto in_range = [bound](I index) { return static_cast<U>(index) < bound; };
    U bad = 0;
    if (nulls_ == nullptr) {
      for (int64_t i = 0; i < data_.length; ++i)
        bad |= static_cast<U>(!in_range(LoadAt<I>(indices, i)));
    } else {
      int64_t base = 0;
      bit_util::VisitWords(nulls_, data_.offset, data_.length, [&](uint64_t word, int64_t n) {
        const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
        if (word == all) {
          for (int64_t i = base; i < base + n; ++i)
            bad |= static_cast<U>(!in_range(LoadAt<I>(indices, i)));
        } else {
          for (; word != 0; word &= word - 1)
            bad |= static_cast<U>(!in_range(LoadAt<I>(indices, base + __builtin_ctzll(word))));
        }
        base += n;
      });
    }
    const bool ok = bad == 0;
    if (ok) return Status::OK();
    for (int64_t i = 0; i < data_.length; ++i) {
      if (nulls_ && !bit_util::GetBit(nulls_, data_.offset + i)) continue;
      const I index = LoadAt<I>(indices, i);
      if (!in_range(index))
        return Fail("slot ", i, Physical(i), ": dictionary index ", Printable(index),
                    " is outside the dictionary of length ", dictionary_length);
    }
    return Fail("has a dictionary index out of range");  // unreachable
  }

  // Run ends live in child 0 at that child's own offset.
  template <typename R>
  Status CheckRunEnds() const {
    const ArrayData& run_ends = *data_.child_data[0];
    const int64_t n = run_ends.length;
    if (n == 0) return Status::OK();
    if (run_ends.buffers[0]) {
      int64_t nulls = n - bit_util::CountSetBits(run_ends.buffers[0]->data(), run_ends.offset, n);
      if (nulls > 0) return Fail("run_ends must not contain nulls, found ", nulls);
    }
    const uint8_t* ends =
        BufferBytes(run_ends, 1) + run_ends.offset * static_cast<int64_t>(sizeof(R));
    const R first = LoadAt<R>(ends, 0);
    if (first <= 0) return Fail("run_ends[0] = ", first, " must be positive");
    if (AnyOutOfOrder<R, true>(ends, n)) {
      for (int64_t i = 1; i < n; ++i) {
        R prev = LoadAt<R>(ends, i - 1), cur = LoadAt<R>(ends, i);
        if (cur <= prev)
          return Fail("run_ends[", i, "] = ", cur, " is not greater than run_ends[", i - 1,
                      "] = ", prev, " (run ends must strictly increase)");
      }
    }
    const int64_t last = LoadAt<R>(ends, n - 1);
    const int64_t end = data_.offset + data_.length;
    if (last < end)
      return Fail("the last run end ", last, " does not cover offset + length = ", end);
    return Status::OK();
  }

  Status CheckMapKeysHaveNoNulls() const {
    const ArrayData& keys = *data_.child_data[0]->child_data[0];
    const DataType* key_type = StorageOf(keys.type.get(), validator_->max_depth());
    const uint8_t* bits = NullBitmap(keys, *key_type);
    if (bits == nullptr) return Status::OK();
    int64_t nulls = keys.length - bit_util::CountSetBits(bits, keys.offset, keys.length);
    if (nulls > 0) return Fail("map keys must not be null, the key array has ", nulls, " nulls");
    return Status::OK();
  }

  Status Recurse() {
    for (size_t i = 0; i < data_.child_data.size(); ++i) {
      auto scope = validator_->path().EnterChild(*type_.field(static_cast<int>(i)), i);
      ALKAID_RETURN_NOT_OK(validator_->ValidateData(*data_.child_data[i]));
    }
    if (data_.dictionary && !validator_->dictionaries_validated()) {
      auto scope = validator_->path().EnterDictionary();
      ALKAID_RETURN_NOT_OK(validator_->ValidateData(*data_.dictionary));
    }
    return Status::OK();
  }

  const uint8_t* nulls_;  // validity bitmap, or null when no slot is null
};

}  // namespace

Status Validator::ValidateData(const ArrayData& data) {
  return DataCheck(this, data, *StorageOf(data.type.get(), max_depth_)).Run();
}

}  // namespace alkaid::internal
