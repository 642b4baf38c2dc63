// Decoding one leaf column chunk into levels and Arrow values (see column_reader.h).
#include "src/parquet/column_reader.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "alkaid/bitmap.h"
#include "alkaid/builder.h"
#include "alkaid/utf8.h"
#include "src/parquet/compression/codec.h"
#include "src/parquet/convert.h"
#include "src/parquet/encoding/decoder.h"
#include "src/parquet/encoding/rle.h"
#include "src/parquet/page_reader.h"

namespace alkaid::parquet::internal {

namespace {

using alkaid::BufferBuilder;
using alkaid::bit_util::BytesForBits;
using alkaid::bit_util::GetBit;
using alkaid::bit_util::SetBitTo;

// Room for `bits` bits in a bitmap builder whose size stays 0 (bits are set in place),
// growing geometrically.
Status GrowBits(BufferBuilder* bitmap, int64_t bits) {
  const int64_t bytes = BytesForBits(bits);
  if (bytes <= bitmap->capacity() && bitmap->allocated()) return Status::OK();
  return bitmap->EnsureCapacity(std::max(bytes, 2 * bitmap->capacity()));
}

bool IsDictionaryEncoding(Encoding e) {
  return e == Encoding::kPlainDictionary || e == Encoding::kRleDictionary;
}

const DataType& StorageOf(const DataType& type) {
  if (type.id() == TypeId::kExtension) return *checked_cast<ExtensionType>(type).storage_type();
  return type;
}

// Where decoded values go, by the leaf's Arrow storage.
enum class Sink : int8_t { kNull, kBool, kFixed, kBinary, kIndices };

class LeafReader {
 public:
  LeafReader(const LeafSpec& spec, const ColumnChunkMetaData& chunk,
             const ColumnReadSettings& settings, ReadBudget* budget, const ChunkName& name)
      : spec_(spec), column_(*spec.column), chunk_(chunk), settings_(settings), budget_(budget),
        name_(name), pool_(settings.pool), def_(pool_), rep_(pool_), validity_(pool_),
        values_(pool_), offsets_(pool_), data_(pool_), extra_offsets_(pool_), extra_data_(pool_) {}

  Status Init() {
    max_def_ = column_.max_definition_level;
    max_rep_ = column_.max_repetition_level;
    const DataType& storage = StorageOf(*spec_.type);
    physical_width_ = FixedValueWidth(column_.physical_type, column_.type_length);
    if (storage.id() == TypeId::kNull) {
      sink_ = Sink::kNull;
      return Status::OK();
    }
    if (storage.id() == TypeId::kDictionary) {
      sink_ = Sink::kIndices;
      if (column_.physical_type != PhysicalType::kByteArray) {
        return Status::TypeError("dictionary read of a non-BYTE_ARRAY column");
      }
      return InitBinaryOffsets(&extra_offsets_, false);
    }
    ALKAID_ASSIGN_OR_RAISE(conversion_, ConversionFor(column_.physical_type, *spec_.type));
    if (storage.id() == TypeId::kBool) {
      sink_ = Sink::kBool;
    } else if (column_.physical_type == PhysicalType::kByteArray &&
               conversion_ != Conversion::kBinaryToDecimal) {
      sink_ = Sink::kBinary;
      large_offsets_ = storage.id() == TypeId::kLargeBinary ||
                       storage.id() == TypeId::kLargeString ||
                       conversion_ == Conversion::kBinaryToView;
      return InitBinaryOffsets(&offsets_, large_offsets_);
    } else {
      sink_ = Sink::kFixed;
      out_width_ = ArrowValueWidth(*spec_.type);
    }
    return Status::OK();
  }

  Status Run(PageReader* pages) {
    DictionaryPage dict;
    DataPage data;
    for (;;) {
      ALKAID_ASSIGN_OR_RAISE(auto kind, pages->Next(&dict, &data));
      if (kind == PageReader::Kind::kEnd) return Status::OK();
      Status st = kind == PageReader::Kind::kDictionary ? OnDictionary(dict) : OnData(data);
      if (!st.ok()) return Status(st.code(), pages->Where() + ": " + st.message());
    }
  }

  Result<LeafData> Finish();

 private:
  static Status InitBinaryOffsets(BufferBuilder* offsets, bool large) {
    if (large) {
      int64_t zero = 0;
      return offsets->Append(&zero, 8);
    }
    int32_t zero = 0;
    return offsets->Append(&zero, 4);
  }

  Status OnDictionary(const DictionaryPage& page) {
    if (sink_ == Sink::kNull) return Status::OK();
    ALKAID_RETURN_NOT_OK(budget_->Charge(page.data->size() + int64_t{page.num_values} * 8,
                                         "dictionary"));
    if (dict_ == nullptr) {
      ALKAID_ASSIGN_OR_RAISE(dict_, MakeDictionaryDecoder(column_.physical_type,
                                                          column_.type_length, pool_));
    }
    return dict_->SetDictionary(page.num_values, page.data->data(), page.data->size());
  }

  Result<ValueDecoder*> DecoderFor(Encoding encoding) {
    if (IsDictionaryEncoding(encoding)) {
      if (dict_ == nullptr) return Status::Invalid("dictionary-encoded page without a dictionary page");
      return static_cast<ValueDecoder*>(dict_.get());
    }
    auto& slot = decoders_[static_cast<size_t>(encoding) % decoders_.size()];
    if (slot == nullptr) {
      ALKAID_ASSIGN_OR_RAISE(slot, MakeDecoder(column_.physical_type, encoding, column_.type_length,
                                               pool_));
    }
    return slot.get();
  }

  // Decodes `n` levels of one kind into `out`.
  Status DecodeLevels(bool v2, Encoding encoding, int16_t max_level, int64_t n, const char* what,
                      const uint8_t** data, int64_t* size, int16_t* out) {
    LevelDecoder decoder;
    ALKAID_ASSIGN_OR_RAISE(int64_t used,
                           decoder.Reset(encoding, max_level, n, *data, *size, !v2, what));
    ALKAID_RETURN_NOT_OK(decoder.Decode(n, out));
    *data += used;
    *size -= used;
    return Status::OK();
  }

  Status OnData(const DataPage& page);
  Status DecodeValues(const DataPage& page, Encoding encoding, const uint8_t* data, int64_t size,
                      int64_t slots, int64_t nonnull, const uint8_t* valid, int64_t valid_offset);

  const LeafSpec& spec_;
  const ColumnDescriptor& column_;
  const ColumnChunkMetaData& chunk_;
  const ColumnReadSettings& settings_;
  ReadBudget* budget_;
  const ChunkName& name_;
  MemoryPool* pool_;
  int16_t max_def_ = 0;
  int16_t max_rep_ = 0;
  Sink sink_ = Sink::kFixed;
  Conversion conversion_ = Conversion::kNone;
  int physical_width_ = 0;
  int out_width_ = 0;
  bool large_offsets_ = false;

  std::unique_ptr<DictionaryDecoder> dict_;
  std::array<std::unique_ptr<ValueDecoder>, 16> decoders_{};

  int64_t entries_ = 0;
  int64_t rows_ = 0;
  int64_t slots_ = 0;
  int64_t valid_count_ = 0;
  BufferBuilder def_, rep_;  // kept levels
  std::vector<int16_t> page_def_, page_rep_;  // levels of one page when not kept
  BufferBuilder validity_;   // one bit per slot (allocated at the first null)
  bool has_nulls_ = false;
  BufferBuilder values_;     // fixed-width values, bits, or dictionary indices
  BufferBuilder offsets_, data_;  // binary
  // Dictionary reads: values of plain (fallback) pages, appended to the dictionary.
  BufferBuilder extra_offsets_, extra_data_;
  int64_t extra_count_ = 0;
  int64_t charged_data_ = 0;
  std::vector<uint8_t> scratch_;  // stored values before conversion
};

Status LeafReader::OnData(const DataPage& page) {
  const int64_t n = page.num_values;
  const bool keep = spec_.keep_levels;
  int64_t level_bytes = (keep ? 2 * ((max_def_ > 0) + (max_rep_ > 0)) : 0);
  int64_t value_bytes = sink_ == Sink::kFixed ? out_width_ : sink_ == Sink::kBinary ? 8 : 4;
  ALKAID_RETURN_NOT_OK(budget_->Charge(n * (level_bytes + value_bytes) + n / 8 + 1, "values"));
  if (entries_ > INT64_MAX / 2 - n) return Status::Invalid("too many values in the chunk");

  // 1. Levels.
  int16_t* def = nullptr;
  int16_t* rep = nullptr;
  auto level_area = [&](BufferBuilder* kept, std::vector<int16_t>* scratch) -> Result<int16_t*> {
    if (keep) {
      ALKAID_RETURN_NOT_OK(kept->Reserve(n * 2));
      int16_t* at = reinterpret_cast<int16_t*>(kept->mutable_data() + kept->size());
      kept->UnsafeAdvance(n * 2);
      return at;
    }
    scratch->resize(static_cast<size_t>(n));
    return scratch->data();
  };
  if (max_rep_ > 0) {
    ALKAID_ASSIGN_OR_RAISE(rep, level_area(&rep_, &page_rep_));
  }
  if (max_def_ > 0) {
    ALKAID_ASSIGN_OR_RAISE(def, level_area(&def_, &page_def_));
  }
  const uint8_t* data = page.body->data();
  int64_t size = page.body->size();
  if (page.v2) {
    const uint8_t* levels = page.levels->data();
    int64_t rep_size = page.repetition_levels_size, def_size = page.definition_levels_size;
    if (max_rep_ > 0) {
      ALKAID_RETURN_NOT_OK(DecodeLevels(true, Encoding::kRle, max_rep_, n, "repetition levels",
                                        &levels, &rep_size, rep));
    }
    levels = page.levels->data() + page.repetition_levels_size;
    if (max_def_ > 0) {
      ALKAID_RETURN_NOT_OK(DecodeLevels(true, Encoding::kRle, max_def_, n, "definition levels",
                                        &levels, &def_size, def));
    }
  } else {
    if (max_rep_ > 0) {
      ALKAID_RETURN_NOT_OK(DecodeLevels(false, page.repetition_level_encoding, max_rep_, n,
                                        "repetition levels", &data, &size, rep));
    }
    if (max_def_ > 0) {
      ALKAID_RETURN_NOT_OK(DecodeLevels(false, page.definition_level_encoding, max_def_, n,
                                        "definition levels", &data, &size, def));
    }
  }

  // 2. Records: a chunk starts with one. An entry continuing a list whose element is absent
  // (DuckDB pads null fixed-size arrays so) is a slot of no node: assembly skips it.
  if (max_rep_ > 0) {
    if (entries_ == 0 && n > 0 && rep[0] != 0) {
      return Status::Invalid("the column chunk starts in the middle of a record (repetition "
                             "level ", rep[0], ")");
    }
    for (int64_t i = 0; i < n; ++i) rows_ += rep[i] == 0;
  } else {
    rows_ += n;
  }

  // 3. Slots and validity.
  int64_t slots = n, nonnull = n;
  const bool nullable = max_def_ > spec_.slot_def;
  const int64_t first_slot = slots_;
  if (max_def_ > 0) {
    slots = 0;
    nonnull = 0;
    if (nullable) ALKAID_RETURN_NOT_OK(GrowBits(&validity_, slots_ + n));
    uint8_t* bits = validity_.mutable_data();
    for (int64_t i = 0; i < n; ++i) {
      int16_t d = def[i];
      if (d < spec_.slot_def) continue;
      bool valid = d == max_def_;
      if (nullable) SetBitTo(bits, first_slot + slots, valid);
      nonnull += valid;
      ++slots;
    }
    if (nonnull < slots) has_nulls_ = true;
  }
  slots_ += slots;
  valid_count_ += nonnull;
  entries_ += n;
  if (sink_ == Sink::kNull || slots == 0) return Status::OK();

  // 4. Values.
  return DecodeValues(page, page.encoding, data, size, slots, nonnull,
                      nullable ? validity_.data() : nullptr, first_slot);
}

Status LeafReader::DecodeValues(const DataPage& page, Encoding encoding, const uint8_t* data,
                                int64_t size, int64_t slots, int64_t nonnull,
                                const uint8_t* valid, int64_t valid_offset) {
  ALKAID_ASSIGN_OR_RAISE(ValueDecoder * decoder, DecoderFor(encoding));
  ALKAID_RETURN_NOT_OK(decoder->SetData(nonnull, data, size));
  const int64_t nulls = slots - nonnull;
  switch (sink_) {
    case Sink::kBool: {
      ALKAID_RETURN_NOT_OK(GrowBits(&values_, valid_offset + slots));
      uint8_t* bits = values_.mutable_data();
      return nulls == 0 ? decoder->DecodeBits(slots, bits, valid_offset)
                        : decoder->DecodeBitsSpaced(slots, nulls, valid, valid_offset, bits,
                                                    valid_offset);
    }
    case Sink::kBinary: {
      BinaryOutput out{&offsets_, &data_, large_offsets_};
      ALKAID_ASSIGN_OR_RAISE(int64_t got,
                             nulls == 0 ? decoder->DecodeBinary(slots, &out)
                                        : decoder->DecodeBinarySpaced(slots, nulls, valid,
                                                                      valid_offset, &out));
      if (got < slots) {
        return Status::CapacityError("more than 2 GiB of string data in one row group; read "
                                     "with ReaderOptions::binary_type = kLarge");
      }
      const int64_t grown = data_.size() - charged_data_;
      charged_data_ = data_.size();
      return budget_->Charge(grown, "string data");
    }
    case Sink::kIndices: {
      if (IsDictionaryEncoding(encoding)) {
        ALKAID_RETURN_NOT_OK(values_.Reserve(slots * 4));
        auto* out = reinterpret_cast<int32_t*>(values_.mutable_data() + values_.size());
        values_.UnsafeAdvance(slots * 4);
        return nulls == 0 ? dict_->DecodeIndices(slots, out)
                          : dict_->DecodeIndicesSpaced(slots, nulls, valid, valid_offset, out);
      }
      // A plain page after the dictionary overflowed: its values join the dictionary.
      const int64_t base =
          (dict_ ? dict_->dictionary().length : 0) + extra_count_;
      BinaryOutput out{&extra_offsets_, &extra_data_, false};
      ALKAID_ASSIGN_OR_RAISE(int64_t got, decoder->DecodeBinary(nonnull, &out));
      if (got < nonnull) return Status::CapacityError("dictionary larger than 2 GiB");
      extra_count_ += nonnull;
      ALKAID_RETURN_NOT_OK(values_.Reserve(slots * 4));
      auto* idx = reinterpret_cast<int32_t*>(values_.mutable_data() + values_.size());
      values_.UnsafeAdvance(slots * 4);
      int64_t next = base;
      for (int64_t i = 0; i < slots; ++i) {
        bool is_valid = valid == nullptr || GetBit(valid, valid_offset + i);
        idx[i] = is_valid ? static_cast<int32_t>(next++) : 0;
      }
      if (next > INT32_MAX) return Status::CapacityError("dictionary of more than 2^31 values");
      return Status::OK();
    }
    case Sink::kFixed: {
      ALKAID_RETURN_NOT_OK(values_.Reserve(slots * out_width_));
      uint8_t* out = values_.mutable_data() + values_.size();
      values_.UnsafeAdvance(slots * out_width_);
      if (conversion_ == Conversion::kNone) {
        return nulls == 0 ? decoder->Decode(slots, out)
                          : decoder->DecodeSpaced(slots, nulls, valid, valid_offset, out);
      }
      if (conversion_ == Conversion::kBinaryToDecimal) {
        BufferBuilder offsets(pool_), bytes(pool_);
        ALKAID_RETURN_NOT_OK(InitBinaryOffsets(&offsets, false));
        BinaryOutput bin{&offsets, &bytes, false};
        ALKAID_ASSIGN_OR_RAISE(int64_t got, decoder->DecodeBinary(nonnull, &bin));
        if (got < nonnull) return Status::CapacityError("decimal page larger than 2 GiB");
        const auto* offs = reinterpret_cast<const int32_t*>(offsets.data());
        int64_t k = 0;
        for (int64_t i = 0; i < slots; ++i) {
          uint8_t* slot = out + i * out_width_;
          if (valid != nullptr && !GetBit(valid, valid_offset + i)) {
            std::memset(slot, 0, static_cast<size_t>(out_width_));
            continue;
          }
          ALKAID_RETURN_NOT_OK(BigEndianToDecimal(bytes.data() + offs[k],
                                                  offs[k + 1] - offs[k], slot, out_width_));
          ++k;
        }
        return Status::OK();
      }
      scratch_.resize(static_cast<size_t>(slots * physical_width_));
      ALKAID_RETURN_NOT_OK(nulls == 0 ? decoder->Decode(slots, scratch_.data())
                                      : decoder->DecodeSpaced(slots, nulls, valid, valid_offset,
                                                              scratch_.data()));
      TimeUnit unit = TimeUnit::kNano;
      if (conversion_ == Conversion::kInt96ToTimestamp) {
        unit = checked_cast<TimestampType>(StorageOf(*spec_.type)).unit();
      }
      (void)page;
      return ConvertFixed(conversion_, scratch_.data(), physical_width_, slots, out, out_width_,
                          unit);
    }
    case Sink::kNull:
      return Status::OK();
  }
  return Status::OK();
}

// Fails unless every value of a string array (`offsets` of `length` + 1 entries into
// `data`) is valid UTF-8: the whole data at once, then no value may start inside a
// character.
template <typename Offset>
Status CheckUtf8(const uint8_t* data, const Offset* offsets, int64_t length) {
  if (length == 0) return Status::OK();
  const int64_t begin = offsets[0], end = offsets[length];
  bool ascii = false;
  int64_t bad = FindInvalidUtf8(data + begin, end - begin, &ascii);
  if (bad >= 0) return Status::Invalid("invalid UTF-8 in a string column at data byte ", bad);
  if (ascii) return Status::OK();
  for (int64_t i = 1; i < length; ++i) {
    int64_t at = offsets[i];
    if (at < end && IsUtf8ContinuationByte(data[at])) {
      return Status::Invalid("invalid UTF-8: string value ", i, " starts inside a character");
    }
  }
  return Status::OK();
}

bool IsStringType(TypeId id) {
  return id == TypeId::kString || id == TypeId::kLargeString || id == TypeId::kStringView;
}

Result<LeafData> LeafReader::Finish() {
  LeafData out;
  out.num_entries = entries_;
  out.num_rows = rows_;
  if (spec_.keep_levels) {
    if (max_def_ > 0) {
      ALKAID_ASSIGN_OR_RAISE(out.def_levels, def_.Finish());
    }
    if (max_rep_ > 0) {
      ALKAID_ASSIGN_OR_RAISE(out.rep_levels, rep_.Finish());
    }
  }
  const int64_t nulls = slots_ - valid_count_;
  BufferPtr validity;
  if (has_nulls_) {
    ALKAID_ASSIGN_OR_RAISE(validity, validity_.FinishWithSize(BytesForBits(slots_)));
  }
  const DataType& storage = StorageOf(*spec_.type);
  switch (sink_) {
    case Sink::kNull:
      out.values = ArrayData::Make(spec_.type, slots_, BufferVector{}, slots_);
      break;
    case Sink::kBool: {
      ALKAID_ASSIGN_OR_RAISE(auto bits, values_.FinishWithSize(BytesForBits(slots_)));
      out.values = ArrayData::Make(spec_.type, slots_, {validity, bits}, nulls);
      break;
    }
    case Sink::kFixed: {
      ALKAID_ASSIGN_OR_RAISE(auto values, values_.Finish());
      out.values = ArrayData::Make(spec_.type, slots_, {validity, values}, nulls);
      break;
    }
    case Sink::kBinary: {
      ALKAID_ASSIGN_OR_RAISE(auto offsets, offsets_.Finish());
      ALKAID_ASSIGN_OR_RAISE(auto data, data_.Finish());
      if (IsStringType(storage.id())) {
        Status st = large_offsets_
                        ? CheckUtf8(data->data(), offsets->data_as<int64_t>(), slots_)
                        : CheckUtf8(data->data(), offsets->data_as<int32_t>(), slots_);
        ALKAID_RETURN_NOT_OK(st);
      }
      if (conversion_ == Conversion::kBinaryToView) {
        auto binary = ArrayData::Make(IsStringType(storage.id()) ? large_utf8() : large_binary(),
                                      slots_, {validity, offsets, data}, nulls);
        ALKAID_ASSIGN_OR_RAISE(out.values, BinaryToViews(*binary, spec_.type, pool_));
      } else {
        out.values = ArrayData::Make(spec_.type, slots_, {validity, offsets, data}, nulls);
      }
      break;
    }
    case Sink::kIndices: {
      ALKAID_ASSIGN_OR_RAISE(auto indices, values_.Finish());
      out.values = ArrayData::Make(spec_.type, slots_, {validity, indices}, nulls);
      const auto& dict_type = checked_cast<DictionaryType>(storage);
      // The dictionary page's values, then those of plain pages.
      BufferBuilder offsets(pool_), data(pool_);
      ALKAID_RETURN_NOT_OK(InitBinaryOffsets(&offsets, false));
      int64_t length = 0;
      if (dict_ != nullptr && dict_->dictionary().length > 0) {
        const DecodedDictionary& d = dict_->dictionary();
        length = d.length;
        ALKAID_RETURN_NOT_OK(offsets.Append(d.offsets->data() + 4, d.length * 4));
        ALKAID_RETURN_NOT_OK(data.Append(d.values->data(), d.values->size()));
      }
      if (extra_count_ > 0) {
        const auto* extra = reinterpret_cast<const int32_t*>(extra_offsets_.data());
        const int64_t base = data.size();
        if (base + extra_data_.size() > INT32_MAX) {
          return Status::CapacityError("dictionary larger than 2 GiB");
        }
        ALKAID_RETURN_NOT_OK(offsets.Reserve(extra_count_ * 4));
        for (int64_t i = 1; i <= extra_count_; ++i) {
          offsets.UnsafeAppendValue(static_cast<int32_t>(base + extra[i]));
        }
        ALKAID_RETURN_NOT_OK(data.Append(extra_data_.data(), extra_data_.size()));
        length += extra_count_;
      }
      ALKAID_ASSIGN_OR_RAISE(auto dict_offsets, offsets.Finish());
      ALKAID_ASSIGN_OR_RAISE(auto dict_data, data.Finish());
      if (IsStringType(dict_type.value_type()->id())) {
        ALKAID_RETURN_NOT_OK(CheckUtf8(dict_data->data(), dict_offsets->data_as<int32_t>(), length));
      }
      out.values->dictionary = ArrayData::Make(dict_type.value_type(), length,
                                               {nullptr, dict_offsets, dict_data}, 0);
      break;
    }
  }
  return out;
}

}  // namespace

Result<LeafData> ReadLeaf(const LeafSpec& spec, const ColumnChunkMetaData& chunk, BufferPtr bytes,
                          int64_t file_offset, const ColumnReadSettings& settings,
                          ReadBudget* budget, const ChunkName& name) {
  std::unique_ptr<Codec> codec;
  Compression compression = chunk.compression();
  if (compression != Compression::kUncompressed) {
    auto made = MakeCodec(compression);
    if (!made.ok()) {
      return Status(made.status().code(), name.ToString() + ": " + made.status().message());
    }
    codec = std::move(*made);
  }
  LeafReader reader(spec, chunk, settings, budget, name);
  Status st = reader.Init();
  if (!st.ok()) return Status(st.code(), name.ToString() + ": " + st.message());
  PageReader pages(std::move(bytes), file_offset, codec.get(), chunk.num_values(), settings,
                   budget, &name);
  ALKAID_RETURN_NOT_OK(reader.Run(&pages));
  auto out = reader.Finish();
  if (!out.ok()) return Status(out.status().code(), name.ToString() + ": " + out.status().message());
  return out;
}

}  // namespace alkaid::parquet::internal
