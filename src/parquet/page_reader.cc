// Page headers, CRCs, decompression and the v1/v2 page layouts (see page_reader.h).
#include "src/parquet/page_reader.h"

#include <zlib.h>

namespace alkaid::parquet::internal {

std::string PageReader::Where() const {
  return name_->ToString() + ", page " + std::to_string(page_index_) + " (byte " +
         std::to_string(page_offset_) + " of the file)";
}

Status PageReader::Error(const std::string& what) const {
  return Status::Invalid(Where(), ": ", what);
}

Result<BufferPtr> PageReader::Decompress(const BufferPtr& stored, int64_t uncompressed_size,
                                         const char* what) {
  if (codec_ != nullptr) {
    ALKAID_RETURN_NOT_OK(budget_->Charge(uncompressed_size, Where() + ": " + what));
  }
  auto out = DecompressPage(codec_, stored, uncompressed_size, settings_.pool);
  if (!out.ok()) return Status(out.status().code(), Where() + ": " + out.status().message());
  return out;
}

Result<PageReader::Kind> PageReader::Next(DictionaryPage* dictionary, DataPage* data) {
  for (;;) {
    if (values_seen_ >= total_values_ && seen_data_) return Kind::kEnd;
    ++page_index_;
    page_offset_ = file_offset_ + pos_;
    const int64_t left = chunk_->size() - pos_;
    if (left <= 0) {
      if (values_seen_ >= total_values_) return Kind::kEnd;
      return Error("the column chunk ends after " + std::to_string(values_seen_) + " of its " +
                   std::to_string(total_values_) + " values");
    }
    format::PageHeader header;
    size_t header_size = 0;
    Status st = thrift::DeserializeThrift(chunk_->data() + pos_, static_cast<size_t>(left),
                                          &header, &header_size, settings_.limits);
    if (!st.ok()) return Error("page header: " + st.message());
    const int64_t body_start = pos_ + static_cast<int64_t>(header_size);
    const int64_t stored = header.compressed_page_size;
    if (stored < 0 || stored > chunk_->size() - body_start) {
      return Error("page claims " + std::to_string(stored) + " stored bytes but the column "
                   "chunk has " + std::to_string(chunk_->size() - body_start) + " left");
    }
    if (header.uncompressed_page_size < 0) {
      return Error("negative uncompressed page size " +
                   std::to_string(header.uncompressed_page_size));
    }
    pos_ = body_start + stored;
    auto body = SliceBuffer(chunk_, body_start, stored);
    if (header.crc && settings_.verify_checksums) {
      uint32_t crc = static_cast<uint32_t>(
          crc32(0, body->data(), static_cast<uInt>(body->size())));
      if (crc != static_cast<uint32_t>(*header.crc)) {
        return Error("CRC mismatch: the page header says " +
                     std::to_string(static_cast<uint32_t>(*header.crc)) +
                     ", its bytes give " + std::to_string(crc));
      }
    }
    const int64_t uncompressed = header.uncompressed_page_size;
    switch (header.type) {
      case format::PageType::kDictionaryPage: {
        if (!header.dictionary_page_header) return Error("dictionary page without its header");
        if (seen_dictionary_ || seen_data_) {
          return Error("a dictionary page after the first page of the column chunk");
        }
        seen_dictionary_ = true;
        const auto& h = *header.dictionary_page_header;
        if (h.num_values < 0) return Error("negative dictionary size");
        auto encoding = EncodingFromWire(h.encoding);
        if (!encoding || (*encoding != Encoding::kPlain &&
                          *encoding != Encoding::kPlainDictionary)) {
          return Error("dictionary page encoding " + std::to_string(h.encoding) +
                       " (PLAIN expected)");
        }
        dictionary->num_values = h.num_values;
        dictionary->encoding = *encoding;
        ALKAID_ASSIGN_OR_RAISE(dictionary->data, Decompress(body, uncompressed, "dictionary page"));
        return Kind::kDictionary;
      }
      case format::PageType::kDataPage: {
        if (!header.data_page_header) return Error("data page without its header");
        const auto& h = *header.data_page_header;
        if (h.num_values < 0) return Error("negative value count");
        auto encoding = EncodingFromWire(h.encoding);
        auto def = EncodingFromWire(h.definition_level_encoding);
        auto rep = EncodingFromWire(h.repetition_level_encoding);
        if (!encoding) return Error("unknown value encoding " + std::to_string(h.encoding));
        if (!def || !rep) return Error("unknown level encoding");
        *data = DataPage{};
        data->num_values = h.num_values;
        data->encoding = *encoding;
        data->definition_level_encoding = *def;
        data->repetition_level_encoding = *rep;
        ALKAID_ASSIGN_OR_RAISE(data->body, Decompress(body, uncompressed, "data page"));
        values_seen_ += h.num_values;
        seen_data_ = true;
        return Kind::kData;
      }
      case format::PageType::kDataPageV2: {
        if (!header.data_page_header_v2) return Error("data page v2 without its header");
        const auto& h = *header.data_page_header_v2;
        if (h.num_values < 0 || h.num_nulls < 0 || h.num_nulls > h.num_values ||
            h.num_rows < 0) {
          return Error("inconsistent counts in the v2 page header (values " +
                       std::to_string(h.num_values) + ", nulls " + std::to_string(h.num_nulls) +
                       ", rows " + std::to_string(h.num_rows) + ")");
        }
        const int64_t levels = int64_t{h.repetition_levels_byte_length} +
                               h.definition_levels_byte_length;
        if (h.repetition_levels_byte_length < 0 || h.definition_levels_byte_length < 0 ||
            levels > stored || levels > uncompressed) {
          return Error("level lengths of the v2 page exceed the page");
        }
        auto encoding = EncodingFromWire(h.encoding);
        if (!encoding) return Error("unknown value encoding " + std::to_string(h.encoding));
        *data = DataPage{};
        data->v2 = true;
        data->num_values = h.num_values;
        data->num_nulls = h.num_nulls;
        data->num_rows = h.num_rows;
        data->encoding = *encoding;
        data->levels = SliceBuffer(body, 0, levels);
        data->repetition_levels_size = h.repetition_levels_byte_length;
        data->definition_levels_size = h.definition_levels_byte_length;
        auto values = SliceBuffer(body, levels, stored - levels);
        if (h.is_compressed.value_or(true) && codec_ != nullptr) {
          ALKAID_ASSIGN_OR_RAISE(data->body,
                                 Decompress(values, uncompressed - levels, "data page v2"));
        } else if (values->size() != uncompressed - levels) {
          return Error("uncompressed v2 page has " + std::to_string(values->size()) +
                       " value bytes, its header says " + std::to_string(uncompressed - levels));
        } else {
          data->body = values;
        }
        values_seen_ += h.num_values;
        seen_data_ = true;
        return Kind::kData;
      }
      default:
        continue;  // index pages and page types of later versions carry no values for us
    }
  }
}

}  // namespace alkaid::parquet::internal
