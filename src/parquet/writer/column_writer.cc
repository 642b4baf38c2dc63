#include "src/parquet/writer/column_writer.h"

#include <zlib.h>

#include <map>
#include <set>
#include <utility>

#include "src/parquet/compression/codec.h"
#include "src/parquet/encoding/bit_packing.h"
#include "src/parquet/encoding/rle.h"
#include "src/parquet/thrift/thrift.h"

namespace alkaid::parquet::internal {

namespace {

// Entries written between checks of the page size, the row limit and the dictionary size.
constexpr int64_t kMiniBatch = 1024;

int32_t Wire(Encoding e) { return static_cast<int32_t>(e); }

// Whether the deprecated min/max fields mean the same as min_value/max_value for this
// column: old readers ordered every column as signed, which is right for these only.
bool LegacyOrderAgrees(PhysicalType type, SortOrder order) {
  if (order == SortOrder::kFloat) return true;
  return order == SortOrder::kSigned &&
         (type == PhysicalType::kInt32 || type == PhysicalType::kInt64 ||
          type == PhysicalType::kBoolean);
}

// Where the next slot of the leaf comes from: a position in LeafLevels::ranges.
struct SlotCursor {
  size_t range = 0;
  int64_t offset = 0;  // slots of ranges[range] already used
};

}  // namespace

class ColumnChunkWriter::Impl {
 public:
  Impl(const ColumnWriterSettings& s, MemoryPool* pool)
      : s_(s), pool_(pool), values_(s.conversion, s.physical_type, s.type_length, pool),
        page_stats_(s.physical_type, s.sort_order, s.type_length),
        def_encoder_(DictionaryIndexBitWidth(int64_t{s.max_def} + 1), pool),
        rep_encoder_(DictionaryIndexBitWidth(int64_t{s.max_rep} + 1), pool),
        chunk_stats_(s.physical_type, s.sort_order, s.type_length), body_(pool),
        page_(pool) {}

  Status Init() {
    if (s_.compression != Compression::kUncompressed) {
      ALKAID_ASSIGN_OR_RAISE(codec_, MakeCodec(s_.compression, s_.compression_level));
    }
    use_dictionary_ = s_.dictionary && s_.physical_type != PhysicalType::kBoolean;
    if (!use_dictionary_ || s_.encoding != Encoding::kPlain) {
      // Made up front so that an encoding that does not fit the type fails at once.
      ALKAID_ASSIGN_OR_RAISE(fallback_, MakeEncoder(s_.physical_type, s_.encoding, s_.type_length, pool_));
    }
    return StartChunk();
  }

  Status Write(const LeafLevels& levels) {
    const int64_t n = levels.num_entries;
    const bool has_def = s_.max_def > 0, has_rep = s_.max_rep > 0;
    if (levels.max_def != s_.max_def || levels.max_rep != s_.max_rep) {
      return Status::Invalid("column '", s_.dotted_path, "': levels up to ", levels.max_def, "/",
                             levels.max_rep, " do not fit the schema's ", s_.max_def, "/", s_.max_rep);
    }
    int64_t valid_offset = 0;
    const uint8_t* valid = levels.validity(&valid_offset);
    SlotCursor cursor;
    for (int64_t e0 = 0; e0 < n;) {
      // Up to kMiniBatch entries and the page's remaining rows, ending at a row boundary.
      const int64_t room = std::max<int64_t>(1, s_.page_row_limit - page_rows_);
      int64_t e1, rows;
      if (!has_rep) {
        e1 = e0 + std::min({kMiniBatch, room, n - e0});
        rows = e1 - e0;
      } else {
        const int16_t* rep = levels.rep_levels.data();
        e1 = e0 + 1;
        rows = 1;
        while (e1 < n && (rep[e1] != 0 || (e1 - e0 < kMiniBatch && rows < room))) {
          rows += rep[e1] == 0;
          ++e1;
        }
      }
      // Levels.
      int64_t slots = e1 - e0, nulls = 0;
      if (has_def) {
        const int16_t* def = levels.def_levels.data();
        ALKAID_RETURN_NOT_OK(def_encoder_.Put(def + e0, e1 - e0));
        slots = 0;
        for (int64_t i = e0; i < e1; ++i) {
          slots += def[i] >= levels.slot_def;
          nulls += def[i] < s_.max_def;
        }
      }
      if (has_rep) ALKAID_RETURN_NOT_OK(rep_encoder_.Put(levels.rep_levels.data() + e0, e1 - e0));
      // Values of the slots these entries reach.
      ColumnStatistics* stats = s_.statistics ? &page_stats_ : nullptr;
      while (slots > 0) {
        const ElementRange& r = levels.ranges[cursor.range];
        int64_t take = std::min(slots, r.size() - cursor.offset);
        int64_t begin = r.begin + cursor.offset;
        ALKAID_RETURN_NOT_OK(values_.Write(*levels.leaf, begin, begin + take, valid, valid_offset,
                                           current_, stats));
        slots -= take;
        cursor.offset += take;
        if (cursor.offset == r.size()) {
          ++cursor.range;
          cursor.offset = 0;
        }
      }
      page_stats_.AddNulls(nulls);
      page_nulls_ += nulls;
      page_entries_ += e1 - e0;
      page_rows_ += rows;
      e0 = e1;
      if (dictionary_ != nullptr && current_ == dictionary_.get() && dictionary_->ShouldFallback()) {
        ALKAID_RETURN_NOT_OK(FallBack());
      } else if (page_rows_ >= s_.page_row_limit || PageEstimate() >= s_.page_size) {
        ALKAID_RETURN_NOT_OK(CutPage());
      }
    }
    return Status::OK();
  }

  int64_t buffered_bytes() const {
    int64_t dict = dictionary_ != nullptr && !dictionary_done_ ? dictionary_->dictionary_byte_size() : 0;
    return data_size_ + dict_size_ + dict + PageEstimate();
  }

  Result<EncodedChunk> Finish() {
    ALKAID_RETURN_NOT_OK(CutPage());
    if (dictionary_ != nullptr && !dictionary_done_) ALKAID_RETURN_NOT_OK(WriteDictionaryPage());
    EncodedChunk out;
    out.pieces = std::move(dict_pieces_);
    for (auto& piece : data_pieces_) out.pieces.push_back(std::move(piece));
    out.size = dict_size_ + data_size_;

    format::ColumnMetaData& meta = out.meta;
    meta.type = static_cast<int32_t>(s_.physical_type);
    meta.encodings.assign(encodings_.begin(), encodings_.end());
    meta.path_in_schema = s_.path;
    meta.codec = static_cast<int32_t>(s_.compression);
    meta.num_values = chunk_entries_;
    meta.total_uncompressed_size = uncompressed_total_;
    meta.total_compressed_size = out.size;
    meta.data_page_offset = dict_size_;
    if (dict_size_ > 0) meta.dictionary_page_offset = 0;
    if (s_.statistics) meta.statistics = ToThrift(chunk_stats_);
    std::vector<format::PageEncodingStats> stats;
    for (const auto& [key, count] : encoding_counts_) {
      format::PageEncodingStats st;
      st.page_type = key.first;
      st.encoding = key.second;
      st.count = static_cast<int32_t>(count);
      stats.push_back(st);
    }
    meta.encoding_stats = std::move(stats);

    if (s_.page_index) {
      format::OffsetIndex offsets;
      offsets.page_locations = std::move(locations_);
      for (auto& loc : offsets.page_locations) loc.offset += dict_size_;
      out.offset_index = std::move(offsets);
      if (column_index_ok_ && s_.statistics && s_.sort_order != SortOrder::kNone) {
        index_.boundary_order = BoundaryOrderOfPages();
        out.column_index = std::move(index_);
      }
    }
    ALKAID_RETURN_NOT_OK(StartChunk());
    return out;
  }

 private:
  Status StartChunk() {
    encodings_.clear();
    encoding_counts_.clear();
    data_pieces_.clear();
    dict_pieces_.clear();
    locations_.clear();
    index_ = format::ColumnIndex();
    index_.null_counts.emplace();
    column_index_ok_ = true;
    data_size_ = dict_size_ = 0;
    uncompressed_total_ = 0;
    chunk_entries_ = chunk_rows_ = 0;
    chunk_stats_.Reset();
    dictionary_done_ = false;
    if (use_dictionary_) {
      ALKAID_ASSIGN_OR_RAISE(dictionary_, MakeDictionaryEncoder(s_.physical_type, s_.type_length,
                                                                 s_.dictionary_limit, pool_));
      current_ = dictionary_.get();
    } else {
      current_ = fallback_.get();
    }
    return Status::OK();
  }

  int64_t PageEstimate() const {
    int64_t level_bits = page_entries_ * (def_encoder_.bit_width() + rep_encoder_.bit_width());
    return level_bits / 8 + current_->EstimatedSize();
  }

  // Data page (or dictionary page) encodings as the wire spells them for this version.
  int32_t DataEncoding() const {
    if (current_ != dictionary_.get() || dictionary_ == nullptr) return Wire(current_->encoding());
    return Wire(s_.version == FormatVersion::k1_0 ? Encoding::kPlainDictionary
                                                  : Encoding::kRleDictionary);
  }

  format::Statistics ToThrift(const ColumnStatistics& stats) const {
    format::Statistics out;
    out.null_count = stats.null_count();
    if (stats.has_min_max()) {
      StatisticValue min = stats.Min(s_.truncate_length), max = stats.Max(s_.truncate_length);
      if (LegacyOrderAgrees(s_.physical_type, s_.sort_order)) {
        out.min = min.bytes;
        out.max = max.bytes;
      }
      out.is_min_value_exact = min.exact;
      out.is_max_value_exact = max.exact;
      out.min_value = std::move(min.bytes);
      out.max_value = std::move(max.bytes);
    }
    return out;
  }

  // Compresses body_ (all of it for v1; the bytes from `values_from` on for v2) into page_.
  Status Compress(int64_t values_from) {
    page_.Reset();
    if (codec_ == nullptr) return page_.Append(body_.data(), body_.size());
    ALKAID_RETURN_NOT_OK(page_.Append(body_.data(), values_from));
    return codec_->Compress(body_.data() + values_from, body_.size() - values_from, &page_).status();
  }

  // Appends a finished page (header + page_) to `pieces`; returns the bytes it took.
  Result<int64_t> EmitPage(format::PageHeader* header, std::vector<BufferPtr>* pieces) {
    header->compressed_page_size = static_cast<int32_t>(page_.size());
    if (s_.checksums) {
      uLong crc = crc32(0L, Z_NULL, 0);
      crc = crc32(crc, page_.data(), static_cast<uInt>(page_.size()));
      header->crc = static_cast<int32_t>(static_cast<uint32_t>(crc));
    }
    std::string header_bytes;
    thrift::SerializeThrift(*header, &header_bytes);
    const int64_t header_size = static_cast<int64_t>(header_bytes.size());
    uncompressed_total_ += header_size + header->uncompressed_page_size;
    pieces->push_back(Buffer::FromString(std::move(header_bytes)));
    const int64_t page_size = page_.size();
    ALKAID_ASSIGN_OR_RAISE(BufferPtr page, page_.Finish());
    pieces->push_back(std::move(page));
    return header_size + page_size;
  }

  Status CheckPageSize(int64_t bytes) const {
    if (bytes > INT32_MAX) {
      return Status::CapacityError("column '", s_.dotted_path, "': a page of ", bytes,
                                   " bytes passes the format's 2 GiB page limit");
    }
    return Status::OK();
  }

  Status CutPage() {
    if (page_entries_ == 0) return Status::OK();
    const int32_t encoding = DataEncoding();
    ALKAID_ASSIGN_OR_RAISE(BufferPtr values, current_->FlushValues());
    body_.Reset();
    format::PageHeader header;
    const bool v2 = s_.page_version == DataPageVersion::kV2;
    int64_t rep_bytes = 0, def_bytes = 0;
    if (s_.max_rep > 0) {
      ALKAID_ASSIGN_OR_RAISE(rep_bytes, rep_encoder_.FinishInto(&body_, !v2));
    }
    if (s_.max_def > 0) {
      ALKAID_ASSIGN_OR_RAISE(def_bytes, def_encoder_.FinishInto(&body_, !v2));
    }
    const int64_t levels_size = body_.size();
    ALKAID_RETURN_NOT_OK(body_.Append(values->data(), values->size()));
    ALKAID_RETURN_NOT_OK(CheckPageSize(body_.size()));
    ALKAID_RETURN_NOT_OK(Compress(v2 ? levels_size : 0));
    ALKAID_RETURN_NOT_OK(CheckPageSize(page_.size()));
    header.uncompressed_page_size = static_cast<int32_t>(body_.size());
    std::optional<format::Statistics> page_stats;
    if (s_.statistics) page_stats = ToThrift(page_stats_);
    if (v2) {
      header.type = format::PageType::kDataPageV2;
      format::DataPageHeaderV2 h;
      h.num_values = static_cast<int32_t>(page_entries_);
      h.num_nulls = static_cast<int32_t>(page_nulls_);
      h.num_rows = static_cast<int32_t>(page_rows_);
      h.encoding = encoding;
      h.definition_levels_byte_length = static_cast<int32_t>(def_bytes);
      h.repetition_levels_byte_length = static_cast<int32_t>(rep_bytes);
      h.is_compressed = codec_ != nullptr;
      h.statistics = std::move(page_stats);
      header.data_page_header_v2 = std::move(h);
    } else {
      header.type = format::PageType::kDataPage;
      format::DataPageHeader h;
      h.num_values = static_cast<int32_t>(page_entries_);
      h.encoding = encoding;
      h.definition_level_encoding = Wire(Encoding::kRle);
      h.repetition_level_encoding = Wire(Encoding::kRle);
      h.statistics = std::move(page_stats);
      header.data_page_header = std::move(h);
    }
    format::PageLocation location;
    location.offset = data_size_;
    location.first_row_index = chunk_rows_;
    ALKAID_ASSIGN_OR_RAISE(int64_t bytes, EmitPage(&header, &data_pieces_));
    location.compressed_page_size = static_cast<int32_t>(bytes);
    locations_.push_back(location);
    data_size_ += bytes;

    encodings_.insert(encoding);
    if (s_.max_def > 0 || s_.max_rep > 0) encodings_.insert(Wire(Encoding::kRle));
    ++encoding_counts_[{header.type, encoding}];
    AddToColumnIndex();
    chunk_stats_.Merge(page_stats_);
    page_stats_.Reset();
    chunk_entries_ += page_entries_;
    chunk_rows_ += page_rows_;
    page_entries_ = page_rows_ = page_nulls_ = 0;
    return Status::OK();
  }

  void AddToColumnIndex() {
    const bool null_page = page_stats_.num_values() == 0;
    index_.null_pages.push_back(null_page);
    index_.null_counts->push_back(page_nulls_);
    if (null_page) {
      index_.min_values.emplace_back();
      index_.max_values.emplace_back();
    } else if (page_stats_.has_min_max()) {
      index_.min_values.push_back(page_stats_.Min(s_.truncate_length).bytes);
      index_.max_values.push_back(page_stats_.Max(s_.truncate_length).bytes);
    } else {
      // Values without a min/max (only NaN): the index cannot describe this page.
      column_index_ok_ = false;
      index_.min_values.emplace_back();
      index_.max_values.emplace_back();
    }
  }

  format::BoundaryOrder BoundaryOrderOfPages() const {
    bool ascending = true, descending = true;
    int64_t prev = -1;
    for (size_t i = 0; i < index_.null_pages.size(); ++i) {
      if (index_.null_pages[i]) continue;
      if (prev >= 0) {
        const auto p = static_cast<size_t>(prev);
        int min_cmp = chunk_stats_.Compare(index_.min_values[i], index_.min_values[p]);
        int max_cmp = chunk_stats_.Compare(index_.max_values[i], index_.max_values[p]);
        if (min_cmp < 0 || max_cmp < 0) ascending = false;
        if (min_cmp > 0 || max_cmp > 0) descending = false;
      }
      prev = static_cast<int64_t>(i);
    }
    if (ascending) return format::BoundaryOrder::kAscending;
    if (descending) return format::BoundaryOrder::kDescending;
    return format::BoundaryOrder::kUnordered;
  }

  Status WriteDictionaryPage() {
    const int64_t entries = dictionary_->num_entries();
    ALKAID_ASSIGN_OR_RAISE(BufferPtr dict, dictionary_->FlushDictionary());
    body_.Reset();
    ALKAID_RETURN_NOT_OK(body_.Append(dict->data(), dict->size()));
    ALKAID_RETURN_NOT_OK(CheckPageSize(body_.size()));
    ALKAID_RETURN_NOT_OK(Compress(0));
    format::PageHeader header;
    header.type = format::PageType::kDictionaryPage;
    header.uncompressed_page_size = static_cast<int32_t>(body_.size());
    format::DictionaryPageHeader h;
    h.num_values = static_cast<int32_t>(entries);
    const Encoding encoding =
        s_.version == FormatVersion::k1_0 ? Encoding::kPlainDictionary : Encoding::kPlain;
    h.encoding = Wire(encoding);
    header.dictionary_page_header = h;
    ALKAID_ASSIGN_OR_RAISE(dict_size_, EmitPage(&header, &dict_pieces_));
    encodings_.insert(Wire(encoding));
    ++encoding_counts_[{header.type, Wire(encoding)}];
    dictionary_done_ = true;
    return Status::OK();
  }

  // The dictionary passed its limit: the open page ends, the dictionary page is made, and
  // the chunk goes on in the column's own encoding.
  Status FallBack() {
    ALKAID_RETURN_NOT_OK(CutPage());
    ALKAID_RETURN_NOT_OK(WriteDictionaryPage());
    if (fallback_ == nullptr) {
      ALKAID_ASSIGN_OR_RAISE(fallback_, MakeEncoder(s_.physical_type, s_.encoding, s_.type_length, pool_));
    }
    current_ = fallback_.get();
    return Status::OK();
  }

  const ColumnWriterSettings& s_;
  MemoryPool* pool_;
  std::unique_ptr<Codec> codec_;
  bool use_dictionary_ = false;
  std::unique_ptr<DictionaryEncoder> dictionary_;
  std::unique_ptr<ValueEncoder> fallback_;
  ValueEncoder* current_ = nullptr;
  bool dictionary_done_ = false;  // the chunk's dictionary page is made
  LeafValueWriter values_;

  // The open page.
  ColumnStatistics page_stats_;
  RleBitPackedEncoder def_encoder_;
  RleBitPackedEncoder rep_encoder_;
  int64_t page_entries_ = 0;
  int64_t page_rows_ = 0;
  int64_t page_nulls_ = 0;

  // The chunk.
  ColumnStatistics chunk_stats_;
  std::vector<BufferPtr> data_pieces_;
  std::vector<BufferPtr> dict_pieces_;
  int64_t data_size_ = 0;
  int64_t dict_size_ = 0;
  int64_t uncompressed_total_ = 0;
  int64_t chunk_entries_ = 0;
  int64_t chunk_rows_ = 0;
  std::set<int32_t> encodings_;
  std::map<std::pair<format::PageType, int32_t>, int64_t> encoding_counts_;
  std::vector<format::PageLocation> locations_;
  format::ColumnIndex index_;
  bool column_index_ok_ = true;

  // Page assembly: uncompressed body, then the page as written.
  alkaid::BufferBuilder body_;
  alkaid::BufferBuilder page_;
};

Result<std::unique_ptr<ColumnChunkWriter>> ColumnChunkWriter::Make(ColumnWriterSettings settings,
                                                                   MemoryPool* pool) {
  std::unique_ptr<ColumnChunkWriter> writer(new ColumnChunkWriter(std::move(settings)));
  writer->impl_ = std::make_unique<Impl>(writer->settings_, pool);
  Status st = writer->impl_->Init();
  if (!st.ok()) return st.WithContext("column '" + writer->settings_.dotted_path + "': ");
  return writer;
}

ColumnChunkWriter::ColumnChunkWriter(ColumnWriterSettings settings)
    : settings_(std::move(settings)) {}

ColumnChunkWriter::~ColumnChunkWriter() = default;

Status ColumnChunkWriter::Write(const LeafLevels& levels) { return impl_->Write(levels); }

int64_t ColumnChunkWriter::buffered_bytes() const { return impl_->buffered_bytes(); }

Result<EncodedChunk> ColumnChunkWriter::Finish() { return impl_->Finish(); }

}  // namespace alkaid::parquet::internal
