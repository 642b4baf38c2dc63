// Integration JSON column objects -> ArrayData, value by value. Each member
// array ("VALIDITY", "DATA", "OFFSET", ...) is decoded as it is parsed into
// a growing pool buffer; when the object ends, the members are checked
// against the count and against each other and assembled. Nothing goes
// through builders or a document.
#include "column_reader.h"

#include <cstring>
#include <type_traits>

#include "alkaid/visit_type.h"
#include "alkaid/visit_width.h"
#include "value_codecs.h"

namespace alkaid::integration_json::internal {

namespace {

// A member array as decoded: how many entries it had, and the buffer.
struct Member {
  bool present = false;
  int64_t entries = 0;
  BufferPtr buffer;
};

bool NeedsChildren(TypeId id) {
  switch (id) {
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
    case TypeId::kMap:
    case TypeId::kFixedSizeList:
    case TypeId::kStruct:
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
    case TypeId::kRunEndEncoded:
      return true;
    default:
      return false;
  }
}

const std::vector<FieldNode>& NoChildNodes() {
  static const std::vector<FieldNode> empty;
  return empty;
}

}  // namespace

Result<std::string> ShowValue(JsonPullParser* parser, JsonToken token) {
  std::string shown;
  switch (token) {
    case JsonToken::kBeginObject:
    case JsonToken::kBeginArray:
      ALKAID_RETURN_NOT_OK(parser->Skip(token));
      shown = TokenName(token);
      break;
    case JsonToken::kString: shown = "\"" + std::string(parser->text().substr(0, 60)) + "\""; break;
    case JsonToken::kNumber: shown = std::string(parser->text().substr(0, 60)); break;
    case JsonToken::kTrue: shown = "true"; break;
    case JsonToken::kFalse: shown = "false"; break;
    default: shown = "null"; break;
  }
  if (shown.size() > 60) shown = shown.substr(0, 57) + "...";
  return shown;
}

Status BadValue(JsonPullParser* parser, JsonToken token, const std::string& where,
                const std::string& expected) {
  ALKAID_ASSIGN_OR_RAISE(std::string shown, ShowValue(parser, token));
  return Status::Invalid(where, ": expected ", expected, ", got ", shown);
}

Result<int64_t> ReadCount(JsonPullParser* parser, const std::string& where) {
  JsonToken t;
  ALKAID_RETURN_NOT_OK(parser->Next(&t));
  int64_t n;
  if (t != JsonToken::kNumber || !DecodeInteger(t, parser->text(), parser->is_integer(), &n) || n < 0)
    return BadValue(parser, t, where, "a non-negative integer");
  return n;
}

namespace {

// ---------------------------------------------------------------------------
// One column object

class ColumnReader {
 public:
  ColumnReader(JsonPullParser* p, DataTypePtr type, const std::vector<FieldNode>& child_nodes,
               std::optional<int64_t> dictionary_id, std::string path,
               std::optional<int64_t> expected_length, ReadContext* ctx)
      : p_(p), type_(std::move(type)), child_nodes_(child_nodes), dictionary_id_(dictionary_id),
        path_(std::move(path)), expected_length_(expected_length), ctx_(ctx) {
    // Extensions are read as their storage, dictionaries as their indices.
    storage_ = type_.get();
    while (storage_->id() == TypeId::kExtension)
      storage_ = static_cast<const ExtensionType&>(*storage_).storage_type().get();
    values_ = storage_;
    if (storage_->id() == TypeId::kDictionary)
      values_ = static_cast<const DictionaryType&>(*storage_).index_type().get();
  }

  Result<ArrayDataPtr> Read(const ColumnName& name) {
    JsonToken t;
    std::string key;
    while (true) {
      ALKAID_RETURN_NOT_OK(p_->Next(&t));
      if (t == JsonToken::kEndObject) break;
      key.assign(p_->text());
      if (key == "name") {
        ALKAID_RETURN_NOT_OK(ReadName(name));
      } else if (key == "count") {
        ALKAID_ASSIGN_OR_RAISE(int64_t n, ReadCount(p_, path_ + ".count"));
        if (expected_length_ && n != *expected_length_)
          return Status::Invalid(path_, ".count: is ", n, " but ", *expected_length_,
                                 " is required by the parent");
        count_ = n;
      } else if (key == "VALIDITY" && values_->layout().has_validity() &&
                 values_->id() != TypeId::kNull) {
        ALKAID_RETURN_NOT_OK(ReadValidity());
      } else if (key == "children" && NeedsChildren(storage_->id())) {
        ALKAID_RETURN_NOT_OK(ReadChildren());
      } else {
        member_ = key;
        consumed_ = false;
        ALKAID_RETURN_NOT_OK(VisitTypeInline(*values_, this));
        if (!consumed_) {
          ALKAID_RETURN_NOT_OK(p_->Next(&t));
          ALKAID_RETURN_NOT_OK(p_->Skip(t));
        }
      }
    }
    if (!count_) return Status::Invalid(path_, ": missing member \"count\"");
    length_ = *count_;
    ALKAID_RETURN_NOT_OK(FinishValidity());
    finishing_ = true;
    ALKAID_RETURN_NOT_OK(VisitTypeInline(*values_, this));
    if (storage_->id() == TypeId::kDictionary) {
      if (!dictionary_id_)
        return Status::Invalid(path_, ": dictionary-encoded column without a dictionary id");
      ctx_->pending.push_back({out_, *dictionary_id_, path_});
    }
    out_->type = type_;
    return std::move(out_);
  }

  // One visit per member while reading (member_ names it) and one when
  // finishing (finishing_): each type reads the members it has.

  Status Visit(const NullType&) {
    if (finishing_) out_ = ArrayData::Make(type_, length_, BufferVector{}, length_);
    return Status::OK();
  }

  Status Visit(const BooleanType&) {
    if (!finishing_) {
      if (member_ != "DATA") return Status::OK();
      GrowingBitmap bits;
      ALKAID_RETURN_NOT_OK(ForEach("DATA", &data_, [&](JsonToken t, int64_t i) -> Status {
        bool value;
        ALKAID_ASSIGN_OR_RAISE(bool ok, BoolCodec::Decode(p_, t, &value));
        if (!ok) return BadValue(p_, t, At("DATA", i), BoolCodec::Expectation());
        return bits.Append(value);
      }));
      ALKAID_ASSIGN_OR_RAISE(data_.buffer, bits.Finish());
      return Status::OK();
    }
    return EmitValues();
  }

  template <typename T>
  std::enable_if_t<has_c_type_v<T>, Status> Visit(const T&) {
    using C = typename T::c_type;
    if (!finishing_) {
      if (member_ == "DATA") return ReadFixedWidth<C>("DATA", &data_, CodecFor<T>());
      return Status::OK();
    }
    return EmitValues();
  }

  template <typename T>
  std::enable_if_t<is_decimal_v<T>, Status> Visit(const T& type) {
    if (finishing_) return EmitValues();
    const int width = type.byte_width();
    return ReadFixedCells(width, [&](JsonToken t, int64_t i, uint8_t* out) -> Status {
      if (t != JsonToken::kString) return BadValue(p_, t, At("DATA", i), "a decimal integer string");
      Status st = ParseDecimalInteger(p_->text(), width, out);
      return st.ok() ? st : st.WithContext(At("DATA", i));
    });
  }

  Status Visit(const FixedSizeBinaryType& type) {
    if (finishing_) return EmitValues();
    const int64_t width = type.byte_width();
    return ReadFixedCells(width, [&](JsonToken t, int64_t i, uint8_t* out) -> Status {
      if (t != JsonToken::kString || p_->text().size() != static_cast<size_t>(2 * width))
        return BadValue(p_, t, At("DATA", i), "a hex string of " + std::to_string(width) + " bytes");
      return DecodeHex(At("DATA", i), out);
    });
  }

  // A DATA member of one `width`-byte value per element: fill(t, i, out)
  // checks element i (its token t) and writes its bytes at `out`. Other
  // members are skipped.
  template <typename Fill>
  Status ReadFixedCells(int64_t width, Fill&& fill) {
    if (member_ != "DATA") return Status::OK();
    GrowingBuffer values;
    ALKAID_RETURN_NOT_OK(ForEach("DATA", &data_, [&](JsonToken t, int64_t i) -> Status {
      ALKAID_ASSIGN_OR_RAISE(uint8_t * out, values.Extend(width));
      return fill(t, i, out);
    }));
    ALKAID_ASSIGN_OR_RAISE(data_.buffer, values.Finish());
    return Status::OK();
  }

  template <typename T>
  std::enable_if_t<is_base_binary_v<T>, Status> Visit(const T&) {
    using Offset = typename T::offset_type;
    if (!finishing_) {
      if (member_ == "OFFSET") return ReadOffsets<Offset>();
      if (member_ == "DATA") return ReadBinaryData<T>();
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(Expect("OFFSET", offset_, length_ + 1));
    ALKAID_RETURN_NOT_OK(Expect("DATA", data_, length_));
    const Offset* off = offset_.buffer->template data_as<Offset>();
    if (data_ends_.buffer != nullptr) {
      // DATA came before OFFSET: compare each value's size now.
      const int64_t* ends = data_ends_.buffer->template data_as<int64_t>();
      for (int64_t i = 0; i < length_; ++i) {
        const int64_t size = ends[i] - (i == 0 ? 0 : ends[i - 1]);
        ALKAID_RETURN_NOT_OK(CheckValueSize(off, i, size));
      }
    }
    BufferPtr offsets = offset_.buffer;
    if (off[0] != 0) {
      // The bytes were stored from zero; offsets follow them.
      ALKAID_ASSIGN_OR_RAISE(auto rebased, AllocateBuffer(offsets->size()));
      Offset* r = rebased->template mutable_data_as<Offset>();
      for (int64_t i = 0; i <= length_; ++i) r[i] = static_cast<Offset>(off[i] - off[0]);
      offsets = std::move(rebased);
    }
    return Emit({validity_, std::move(offsets), data_.buffer});
  }

  template <typename T>
  std::enable_if_t<is_binary_view_v<T>, Status> Visit(const T&) {
    if (!finishing_) {
      if (member_ == "VIEWS") return ReadViews(std::is_same_v<T, BinaryViewType>);
      if (member_ == "VARIADIC_DATA_BUFFERS") return ReadVariadicBuffers();
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(Expect("VIEWS", views_, length_));
    const auto* views = views_.buffer->template data_as<BinaryViewValue>();
    for (int64_t i = 0; i < length_; ++i) {
      if (!views[i].is_inline()) ALKAID_RETURN_NOT_OK(CheckViewReference(views[i], i));
    }
    BufferVector buffers{validity_, views_.buffer};
    for (BufferPtr& b : variadic_) buffers.push_back(std::move(b));
    return Emit(std::move(buffers));
  }

  template <typename T>
  std::enable_if_t<is_var_list_v<T>, Status> Visit(const T&) {
    using Offset = typename T::offset_type;
    if (!finishing_) {
      if (member_ == "OFFSET") return ReadOffsets<Offset>();
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(Expect("OFFSET", offset_, length_ + 1));
    ALKAID_RETURN_NOT_OK(ExpectChildren());
    const int64_t end = offset_.buffer->template data_as<Offset>()[length_];
    if (end > children_[0]->length)
      return Status::Invalid(path_, ".OFFSET[", length_, "]: last offset ", end,
                             " is past the child's count ", children_[0]->length);
    return Emit({validity_, offset_.buffer}, std::move(children_));
  }

  template <typename T>
  std::enable_if_t<is_list_view_v<T>, Status> Visit(const T&) {
    using Offset = typename T::offset_type;
    if (!finishing_) {
      if (member_ == "OFFSET") return ReadFixedWidth<Offset>("OFFSET", &offset_, IntegerCodec<Offset>{});
      if (member_ == "SIZE") return ReadFixedWidth<Offset>("SIZE", &size_, IntegerCodec<Offset>{});
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(Expect("OFFSET", offset_, length_));
    ALKAID_RETURN_NOT_OK(Expect("SIZE", size_, length_));
    ALKAID_RETURN_NOT_OK(ExpectChildren());
    const Offset* off = offset_.buffer->template data_as<Offset>();
    const Offset* size = size_.buffer->template data_as<Offset>();
    const int64_t child_length = children_[0]->length;
    for (int64_t i = 0; i < length_; ++i) {
      if (off[i] < 0 || size[i] < 0 || static_cast<int64_t>(off[i]) > child_length - size[i])
        return Status::Invalid(path_, "[", i, "]: list view [OFFSET ", off[i], ", SIZE ", size[i],
                               "] is outside the child's count ", child_length);
    }
    return Emit({validity_, offset_.buffer, size_.buffer}, std::move(children_));
  }

  Status Visit(const FixedSizeListType&) {
    if (!finishing_) return Status::OK();
    ALKAID_RETURN_NOT_OK(ExpectChildren());
    return Emit({validity_}, std::move(children_));
  }

  Status Visit(const StructType&) {
    if (!finishing_) return Status::OK();
    ALKAID_RETURN_NOT_OK(ExpectChildren());
    return Emit({validity_}, std::move(children_));
  }

  template <typename T>
  std::enable_if_t<is_union_v<T>, Status> Visit(const T& type) {
    constexpr bool kDense = std::is_same_v<T, DenseUnionType>;
    if (!finishing_) {
      if (member_ == "TYPE_ID") return ReadFixedWidth<int8_t>("TYPE_ID", &type_id_, IntegerCodec<int8_t>{});
      if (kDense && member_ == "OFFSET") return ReadFixedWidth<int32_t>("OFFSET", &offset_, IntegerCodec<int32_t>{});
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(Expect("TYPE_ID", type_id_, length_));
    const int8_t* codes = type_id_.buffer->template data_as<int8_t>();
    for (int64_t i = 0; i < length_; ++i) {
      if (type.child_index(codes[i]) == UnionType::kInvalidChild)
        return Status::Invalid(path_, ".TYPE_ID[", i, "]: type id ", int(codes[i]),
                               " is not declared by the union");
    }
    BufferVector buffers{type_id_.buffer};
    if constexpr (kDense) {
      ALKAID_RETURN_NOT_OK(Expect("OFFSET", offset_, length_));
      ALKAID_RETURN_NOT_OK(ExpectChildren());
      const int32_t* off = offset_.buffer->template data_as<int32_t>();
      for (int64_t i = 0; i < length_; ++i) {
        const int64_t child_length = children_[static_cast<size_t>(type.child_index(codes[i]))]->length;
        if (off[i] < 0 || off[i] >= child_length)
          return Status::Invalid(path_, ".OFFSET[", i, "]: offset ", off[i], " is outside child ",
                                 type.child_index(codes[i]), " of count ", child_length);
      }
      buffers.push_back(offset_.buffer);
    } else {
      ALKAID_RETURN_NOT_OK(ExpectChildren());
    }
    out_ = ArrayData::Make(type_, length_, std::move(buffers), std::move(children_), 0);
    return Status::OK();
  }

  Status Visit(const RunEndEncodedType&) {
    if (!finishing_) return Status::OK();
    ALKAID_RETURN_NOT_OK(ExpectChildren());
    if (children_[0]->length != children_[1]->length)
      return Status::Invalid(path_, ": run_ends has count ", children_[0]->length,
                             " but values has count ", children_[1]->length);
    if (children_[0]->null_count != 0)
      return Status::Invalid(path_, ".children[0]: run ends must not be null");
    ALKAID_RETURN_NOT_OK(VisitRunEndType(*children_[0]->type, [&](auto zero) -> Status {
      return CheckRunEnds<decltype(zero)>(*children_[0]);
    }));
    out_ = ArrayData::Make(type_, length_, BufferVector{}, std::move(children_), 0);
    return Status::OK();
  }

  // values_ is never a dictionary or an extension (see the constructor).
  Status Visit(const DictionaryType&) { return Status::OK(); }
  Status Visit(const ExtensionType&) { return Status::OK(); }

 private:
  std::string At(const char* member, int64_t i) const {
    return path_ + "." + member + "[" + std::to_string(i) + "]";
  }

  // Validity and one DATA buffer of count values.
  Status EmitValues() {
    ALKAID_RETURN_NOT_OK(Expect("DATA", data_, length_));
    return Emit({validity_, data_.buffer});
  }

  Status Emit(BufferVector buffers, ArrayDataVector children = {}) {
    out_ = ArrayData::Make(type_, length_, std::move(buffers), std::move(children), null_count_);
    return Status::OK();
  }

  Status ReadName(const ColumnName& name) {
    JsonToken t;
    ALKAID_RETURN_NOT_OK(p_->Next(&t));
    if (!name.check) return p_->Skip(t);
    if (t == JsonToken::kString && p_->text() == name.field) return Status::OK();
    ALKAID_ASSIGN_OR_RAISE(std::string shown, ShowValue(p_, t));
    if (name.batch_column >= 0)
      return Status::Invalid(path_, ".name: column is named ", shown, " but schema field ",
                             name.batch_column, " is \"", name.field, "\"");
    return Status::Invalid(path_, ".name: column is named ", shown, " but the schema's field is \"",
                           name.field, "\"");
  }

  // Calls element(token, index) for each element of the array member `key`.
  template <typename F>
  Status ForEach(const char* key, Member* member, F&& element) {
    consumed_ = true;
    JsonToken t;
    ALKAID_RETURN_NOT_OK(p_->Next(&t));
    if (t != JsonToken::kBeginArray) {
      ALKAID_RETURN_NOT_OK(p_->Skip(t));
      return Status::Invalid(path_, ".", key, ": expected an array, got ", JsonTypeName(t));
    }
    *member = Member{true, 0, nullptr};
    int64_t i = 0;
    while (true) {
      ALKAID_RETURN_NOT_OK(p_->Next(&t));
      if (t == JsonToken::kEndArray) break;
      ALKAID_RETURN_NOT_OK(element(t, i));
      ++i;
    }
    member->entries = i;
    return Status::OK();
  }

  template <typename C, typename Codec>
  Status ReadFixedWidth(const char* key, Member* member, Codec) {
    GrowingBuffer values;
    ALKAID_RETURN_NOT_OK(values.Reserve(ExpectedEntries() * static_cast<int64_t>(sizeof(C))));
    ALKAID_RETURN_NOT_OK(ForEach(key, member, [&](JsonToken t, int64_t i) -> Status {
      C value{};
      auto ok = Codec::Decode(p_, t, &value);
      if (!ok.ok()) return ok.status().WithContext(At(key, i));
      if (!*ok) return BadValue(p_, t, At(key, i), Codec::Expectation());
      return values.Append(value);
    }));
    ALKAID_ASSIGN_OR_RAISE(member->buffer, values.Finish());
    return Status::OK();
  }

  // How many entries to make room for before a member array is read: its
  // count when known, but no more than a million, so that a count the text
  // does not back costs nothing (buffers double from there as entries come).
  int64_t ExpectedEntries() const { return count_ ? std::min<int64_t>(*count_, int64_t{1} << 20) : 0; }

  // A missing VALIDITY means every slot is valid; a bitmap is kept only
  // when some slot is null.
  Status ReadValidity() {
    GrowingBitmap bits;
    ALKAID_RETURN_NOT_OK(bits.Reserve(ExpectedEntries()));
    ALKAID_RETURN_NOT_OK(ForEach("VALIDITY", &validity_member_, [&](JsonToken t, int64_t i) -> Status {
      bool valid;
      ALKAID_ASSIGN_OR_RAISE(bool ok, BoolCodec::Decode(p_, t, &valid));
      if (!ok) return BadValue(p_, t, At("VALIDITY", i), "0 or 1");
      return bits.Append(valid);
    }));
    valid_count_ = bits.set_count();
    ALKAID_ASSIGN_OR_RAISE(validity_member_.buffer, bits.Finish());
    return Status::OK();
  }

  Status FinishValidity() {
    null_count_ = 0;
    if (!validity_member_.present) return Status::OK();
    ALKAID_RETURN_NOT_OK(Expect("VALIDITY", validity_member_, length_));
    null_count_ = length_ - valid_count_;
    if (null_count_ > 0) validity_ = validity_member_.buffer;
    return Status::OK();
  }

  Status Expect(const char* key, const Member& member, int64_t expected) const {
    if (!member.present) return Status::Invalid(path_, ": missing member \"", key, "\"");
    if (member.entries != expected)
      return Status::Invalid(path_, ".", key, ": has ", member.entries, " entries but ", expected,
                             " are expected (count is ", length_, ")");
    return Status::OK();
  }

  // Non-negative, non-decreasing offsets (count + 1 of them, checked at the
  // end); checked as soon as they are read, before values are held to them.
  template <typename Offset>
  Status ReadOffsets() {
    ALKAID_RETURN_NOT_OK(ReadFixedWidth<Offset>("OFFSET", &offset_, IntegerCodec<Offset>{}));
    if (offset_.entries == 0) return Status::OK();
    const Offset* off = offset_.buffer->template data_as<Offset>();
    if (off[0] < 0) return Status::Invalid(path_, ".OFFSET[0]: offset ", off[0], " is negative");
    for (int64_t i = 0; i + 1 < offset_.entries; ++i) {
      if (off[i + 1] < off[i])
        return Status::Invalid(path_, ".OFFSET[", i + 1, "]: offset ", off[i + 1],
                               " is less than the previous offset ", off[i]);
    }
    return Status::OK();
  }

  template <typename Offset>
  Status CheckValueSize(const Offset* off, int64_t i, int64_t size) const {
    if (static_cast<int64_t>(off[i + 1] - off[i]) != size)
      return Status::Invalid(path_, ".DATA[", i, "]: value has ", size, " bytes but OFFSET[", i, "..",
                             i + 1, "] spans ", off[i + 1] - off[i]);
    return Status::OK();
  }

  Status DecodeHex(const std::string& at, uint8_t* out) {
    size_t bad_at = 0;
    if (!HexDecode(p_->text(), out, &bad_at)) {
      const std::string shown = "\"" + std::string(p_->text().substr(0, 57)) + "\"";
      return Status::Invalid(at, ": invalid hex at character ", bad_at, " of ", shown);
    }
    return Status::OK();
  }

  // Values go into one buffer in order; their sizes are checked against
  // OFFSET as they come when OFFSET came first (as writers put it), else
  // when the column ends.
  template <typename T>
  Status ReadBinaryData() {
    using Offset = typename T::offset_type;
    constexpr bool kHex = !std::is_same_v<T, StringType> && !std::is_same_v<T, LargeStringType>;
    const Offset* off = offset_.present ? offset_.buffer->template data_as<Offset>() : nullptr;
    GrowingBuffer bytes;
    GrowingBuffer ends;
    ALKAID_RETURN_NOT_OK(ForEach("DATA", &data_, [&](JsonToken t, int64_t i) -> Status {
      if (t != JsonToken::kString) return BadValue(p_, t, At("DATA", i), kHex ? "a hex string" : "a string");
      int64_t size = static_cast<int64_t>(p_->text().size());
      if (kHex && size % 2 != 0) return BadValue(p_, t, At("DATA", i), "a hex string of even length");
      if (kHex) size /= 2;
      if (off != nullptr && i < offset_.entries - 1) {
        ALKAID_RETURN_NOT_OK(CheckValueSize(off, i, size));
      } else if (off == nullptr) {
        ALKAID_RETURN_NOT_OK(ends.Append(bytes.size() + size));
      }
      ALKAID_ASSIGN_OR_RAISE(uint8_t * out, bytes.Extend(size));
      if constexpr (kHex) {
        return DecodeHex(At("DATA", i), out);
      } else {
        if (size > 0) std::memcpy(out, p_->text().data(), static_cast<size_t>(size));
        return Status::OK();
      }
    }));
    ALKAID_ASSIGN_OR_RAISE(data_.buffer, bytes.Finish());
    data_ends_ = Member{};
    if (off == nullptr) {
      ALKAID_ASSIGN_OR_RAISE(data_ends_.buffer, ends.Finish());
    }
    return Status::OK();
  }

  Status ReadVariadicBuffers() {
    consumed_ = true;
    JsonToken t;
    ALKAID_RETURN_NOT_OK(p_->Next(&t));
    if (t != JsonToken::kBeginArray) {
      ALKAID_RETURN_NOT_OK(p_->Skip(t));
      return Status::Invalid(path_, ".VARIADIC_DATA_BUFFERS: expected an array of hex strings");
    }
    variadic_.clear();
    for (int64_t i = 0;; ++i) {
      ALKAID_RETURN_NOT_OK(p_->Next(&t));
      if (t == JsonToken::kEndArray) break;
      if (t != JsonToken::kString || p_->text().size() % 2 != 0)
        return BadValue(p_, t, At("VARIADIC_DATA_BUFFERS", i), "a hex string of even length");
      ALKAID_ASSIGN_OR_RAISE(auto buffer, AllocateBuffer(static_cast<int64_t>(p_->text().size() / 2)));
      ALKAID_RETURN_NOT_OK(DecodeHex(At("VARIADIC_DATA_BUFFERS", i), buffer->mutable_data()));
      variadic_.push_back(std::move(buffer));
    }
    return Status::OK();
  }

  // Each view as written; references into the variadic buffers are checked
  // when the column ends (the buffers come after the views).
  Status ReadViews(bool hex) {
    GrowingBuffer views;
    ALKAID_RETURN_NOT_OK(views.Reserve(ExpectedEntries() * 16));
    ALKAID_RETURN_NOT_OK(ForEach("VIEWS", &views_, [&](JsonToken t, int64_t i) -> Status {
      const std::string at = At("VIEWS", i);
      if (t != JsonToken::kBeginObject) return BadValue(p_, t, at, "a view object");
      Json v;
      ALKAID_RETURN_NOT_OK(p_->ReadDom(t, &v));
      BinaryViewValue view;
      ALKAID_RETURN_NOT_OK(DecodeView(v, at, hex, &view));
      return views.Append(view);
    }));
    ALKAID_ASSIGN_OR_RAISE(views_.buffer, views.Finish());
    return Status::OK();
  }

  static Status DecodeView(const Json& v, const std::string& at, bool hex, BinaryViewValue* out) {
    int32_t size;
    if (!DecodeIntegerMember(v, "SIZE", &size) || size < 0)
      return Status::Invalid(at, ".SIZE: expected a non-negative 32-bit integer");
    std::memset(out, 0, sizeof(*out));
    out->inlined.size = size;
    if (size <= BinaryViewValue::kInlineSize) {
      auto inlined = v.find("INLINED");
      if (inlined == v.end() || !inlined->is_string())
        return Status::Invalid(at, ": a view of ", size, " bytes needs an INLINED string");
      const std::string& text = inlined->get_ref<const std::string&>();
      const size_t decoded = hex ? text.size() / 2 : text.size();
      if ((hex && text.size() % 2 != 0) || decoded != static_cast<size_t>(size))
        return Status::Invalid(at, ".INLINED: holds ", decoded, " bytes but SIZE is ", size);
      if (hex) {
        size_t bad_at = 0;
        if (!HexDecode(text, out->inlined.data, &bad_at))
          return Status::Invalid(at, ".INLINED: invalid hex at character ", bad_at);
      } else if (size > 0) {
        std::memcpy(out->inlined.data, text.data(), text.size());
      }
      return Status::OK();
    }
    auto prefix = v.find("PREFIX_HEX");
    size_t bad_at = 0;
    if (prefix == v.end() || !prefix->is_string() || prefix->get_ref<const std::string&>().size() != 8 ||
        !HexDecode(prefix->get_ref<const std::string&>(), out->ref.prefix, &bad_at))
      return Status::Invalid(at, ".PREFIX_HEX: expected 8 hex digits");
    int32_t index, offset;
    if (!DecodeIntegerMember(v, "BUFFER_INDEX", &index) || index < 0)
      return Status::Invalid(at, ".BUFFER_INDEX: expected a non-negative 32-bit integer");
    if (!DecodeIntegerMember(v, "OFFSET", &offset) || offset < 0)
      return Status::Invalid(at, ".OFFSET: expected a non-negative 32-bit integer");
    out->ref.buffer_index = index;
    out->ref.offset = offset;
    return Status::OK();
  }

  Status CheckViewReference(const BinaryViewValue& view, int64_t i) const {
    const std::string at = At("VIEWS", i);
    const int32_t index = view.ref.buffer_index;
    if (static_cast<size_t>(index) >= variadic_.size())
      return Status::Invalid(at, ".BUFFER_INDEX: ", index, " but only ", variadic_.size(),
                             " variadic data buffers are given");
    const Buffer& data = *variadic_[static_cast<size_t>(index)];
    const int64_t end = static_cast<int64_t>(view.ref.offset) + view.size();
    if (end > data.size())
      return Status::Invalid(at, ": bytes [", view.ref.offset, ", ", end, ") are outside variadic buffer ",
                             index, " of ", data.size(), " bytes");
    if (std::memcmp(data.data() + view.ref.offset, view.ref.prefix, BinaryViewValue::kPrefixSize) != 0)
      return Status::Invalid(at, ".PREFIX_HEX: does not match the first bytes of the viewed data");
    return Status::OK();
  }

  // The count a child must have, when the layout and the parent's count fix it.
  std::optional<int64_t> ChildLength(std::optional<int64_t> count) const {
    if (!count) return std::nullopt;
    switch (storage_->id()) {
      case TypeId::kStruct:
      case TypeId::kSparseUnion:
        return count;
      case TypeId::kFixedSizeList: {
        int64_t n;
        if (__builtin_mul_overflow(*count, static_cast<const FixedSizeListType&>(*storage_).list_size(), &n))
          return std::nullopt;
        return n;
      }
      default:
        return std::nullopt;
    }
  }

  std::string ChildPath(int i) const {
    return path_ + ".children[" + std::to_string(i) + "](" + storage_->field(i)->name() + ")";
  }

  // Reads "children": one column per child field of the storage type.
  Status ReadChildren() {
    const int n = storage_->num_fields();
    JsonToken t;
    ALKAID_RETURN_NOT_OK(p_->Next(&t));
    if (t != JsonToken::kBeginArray) {
      ALKAID_RETURN_NOT_OK(p_->Skip(t));
      return Status::Invalid(path_, ".children: expected an array of ", n, " columns, got ", JsonTypeName(t));
    }
    children_present_ = true;
    children_.clear();
    int i = 0;
    while (true) {
      ALKAID_RETURN_NOT_OK(p_->Next(&t));
      if (t == JsonToken::kEndArray) break;
      if (i >= n) {
        // Count the rest for the message.
        ALKAID_RETURN_NOT_OK(p_->Skip(t));
        for (++i;; ++i) {
          ALKAID_RETURN_NOT_OK(p_->Next(&t));
          if (t == JsonToken::kEndArray) break;
          ALKAID_RETURN_NOT_OK(p_->Skip(t));
        }
        return Status::Invalid(path_, ".children: expected an array of ", n, " columns, got ", i);
      }
      const FieldPtr& field = storage_->field(i);
      const FieldNode* node = static_cast<size_t>(i) < child_nodes_.size() ? &child_nodes_[static_cast<size_t>(i)] : nullptr;
      const std::string child_path = ChildPath(i);
      if (t != JsonToken::kBeginObject) {
        ALKAID_RETURN_NOT_OK(p_->Skip(t));
        return Status::Invalid(child_path, ": expected a column object, got ", JsonTypeName(t));
      }
      ALKAID_ASSIGN_OR_RAISE(
          auto child, ReadColumn(p_, t, field->type(), node ? node->children : NoChildNodes(),
                                 node ? node->dictionary_id : std::nullopt, child_path,
                                 ChildLength(count_), ColumnName{field->name()}, ctx_));
      children_.push_back(std::move(child));
      ++i;
    }
    if (i < n) return Status::Invalid(path_, ".children: expected an array of ", n, " columns, got ", i);
    return Status::OK();
  }

  // Children were required; those read before "count" are checked against it now.
  Status ExpectChildren() {
    if (!children_present_) return Status::Invalid(path_, ": missing member \"children\"");
    const std::optional<int64_t> expected = ChildLength(length_);
    for (size_t i = 0; expected && i < children_.size(); ++i) {
      if (children_[i]->length != *expected)
        return Status::Invalid(ChildPath(static_cast<int>(i)), ".count: is ", children_[i]->length,
                               " but ", *expected, " is required by the parent");
    }
    return Status::OK();
  }

  template <typename RunEnd>
  Status CheckRunEnds(const ArrayData& run_ends) {
    const RunEnd* ends = run_ends.length == 0 ? nullptr : run_ends.GetValues<RunEnd>(1);
    int64_t previous = 0;
    for (int64_t i = 0; i < run_ends.length; ++i) {
      if (ends[i] <= previous)
        return Status::Invalid(path_, ".children[0](run_ends).DATA[", i, "]: run end ", ends[i],
                               " must be greater than ", previous, " (run ends strictly increase from 1)");
      previous = ends[i];
    }
    if (previous < length_)
      return Status::Invalid(path_, ": run ends cover ", previous, " slots but count is ", length_);
    return Status::OK();
  }

  JsonPullParser* p_;
  DataTypePtr type_;
  const DataType* storage_;  // type_ without extensions
  const DataType* values_;   // storage_, or its index type when dictionary-encoded
  const std::vector<FieldNode>& child_nodes_;
  std::optional<int64_t> dictionary_id_;
  std::string path_;
  std::optional<int64_t> expected_length_;
  ReadContext* ctx_;

  // While reading.
  std::string member_;
  bool consumed_ = false;
  bool finishing_ = false;
  std::optional<int64_t> count_;
  Member validity_member_;
  int64_t valid_count_ = 0;
  Member data_, data_ends_, offset_, size_, type_id_, views_;
  BufferVector variadic_;
  bool children_present_ = false;
  ArrayDataVector children_;

  // When finishing.
  int64_t length_ = 0;
  BufferPtr validity_;
  int64_t null_count_ = 0;
  ArrayDataPtr out_;
};

}  // namespace

Result<ArrayDataPtr> ReadColumn(JsonPullParser* parser, JsonToken first, const DataTypePtr& type,
                                const std::vector<FieldNode>& child_nodes,
                                std::optional<int64_t> dictionary_id, const std::string& path,
                                std::optional<int64_t> expected_length, const ColumnName& name,
                                ReadContext* ctx) {
  if (first != JsonToken::kBeginObject) {
    ALKAID_RETURN_NOT_OK(parser->Skip(first));
    return Status::Invalid(path, ": expected a column object, got ", JsonTypeName(first));
  }
  ColumnReader reader(parser, type, child_nodes, dictionary_id, path, expected_length, ctx);
  return reader.Read(name);
}

}  // namespace alkaid::integration_json::internal
