// Integration JSON -> schema, dictionaries and batches, pulled token by token
// (JsonPullParser) and decoded straight into arrays (column_reader.cc), one
// batch at a time. The document's members may come in any order: batches
// that arrive before the schema or the dictionaries they need are skipped
// and read on a second visit; each dictionary's text is held while it is
// read, since its "id" may follow its "data".
#include <charconv>
#include <map>
#include <optional>

#include "alkaid/integration_json/integration.h"
#include "alkaid/validate.h"
#include "column_reader.h"
#include "integration_internal.h"
#include "json_pull_parser.h"

namespace alkaid::integration_json {

using internal::ColumnName;
using internal::FieldNode;
using internal::Json;
using internal::JsonPullParser;
using internal::JsonToken;
using internal::ReadContext;
using internal::TextMark;
using internal::TextSource;

namespace {

std::string ColumnPath(const std::string& prefix, size_t i, const std::string& name) {
  return prefix + "[" + std::to_string(i) + "](" + name + ")";
}

void IndexDictionaryFields(const std::vector<FieldNode>& nodes, std::map<int64_t, const FieldNode*>* out) {
  for (const FieldNode& node : nodes) {
    if (node.dictionary_id) out->emplace(*node.dictionary_id, &node);
    IndexDictionaryFields(node.children, out);
  }
}

// Arrays and objects around one dictionary in the document: the top-level
// object and the "dictionaries" array.
constexpr int kDictionaryDepth = 2;

}  // namespace

class IntegrationJsonReader::Impl {
 public:
  Impl(std::unique_ptr<TextSource> source, const IntegrationReadOptions& options, std::string context)
      : source_(std::move(source)), options_(options), context_(std::move(context)),
        parser_(source_.get(), internal::MaxJsonNesting(options.max_recursion_depth)) {}

  Status Open() { return Guard([&] { return OpenUnguarded(); }); }

  Result<RecordBatchPtr> Next() {
    if (!failure_.ok()) return failure_;
    RecordBatchPtr batch;
    Status st = Guard([&]() -> Status {
      ALKAID_ASSIGN_OR_RAISE(batch, NextUnguarded());
      return Status::OK();
    });
    if (!st.ok()) return failure_;
    return batch;
  }

  const SchemaPtr& schema() const { return parsed_.schema; }
  const DictionaryIds& dictionary_ids() const { return parsed_.dictionary_ids; }
  const std::map<int64_t, ArrayDataPtr>& dictionaries() const { return dictionaries_; }
  int64_t num_batches() const { return num_batches_; }

 private:
  enum class Phase { kMembers, kBatches, kDone };

  // Turns exceptions of the DOM library and of allocation into a Status, and
  // keeps the first failure for every later call.
  template <typename F>
  Status Guard(F&& f) {
    Status st;
    try {
      st = f();
    } catch (const nlohmann::json::exception& e) {
      st = Status::Invalid("integration JSON: unexpected structure: ", e.what());
    } catch (const std::bad_alloc&) {
      st = Status::OutOfMemory("integration JSON: out of memory while reading");
    }
    if (!st.ok()) failure_ = context_.empty() ? st : st.WithContext(context_);
    return failure_;
  }

  Status OpenUnguarded() {
    if (options_.max_recursion_depth < 1)
      return Status::Invalid("IntegrationReadOptions: max_recursion_depth must be positive");
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));
    if (t != JsonToken::kBeginObject) {
      ALKAID_RETURN_NOT_OK(parser_.Skip(t));
      return Status::Invalid("integration JSON: the top level must be an object");
    }
    return ReadMembers();
  }

  // Reads top-level members until the batches can be streamed (phase_ is
  // then kBatches) or the document ends.
  Status ReadMembers() {
    JsonToken t;
    while (true) {
      ALKAID_RETURN_NOT_OK(parser_.Next(&t));
      if (t == JsonToken::kEndObject) return EndOfDocument();
      if (t == JsonToken::kEnd) {
        // The batches, visited a second time, were the last thing to read.
        phase_ = Phase::kDone;
        return Status::OK();
      }
      const std::string key(parser_.text());
      if (key == "schema") {
        ALKAID_RETURN_NOT_OK(Once(&seen_schema_, key));
        ALKAID_RETURN_NOT_OK(ReadSchema());
      } else if (key == "dictionaries") {
        ALKAID_RETURN_NOT_OK(Once(&seen_dictionaries_, key));
        if (seen_schema_) {
          ALKAID_RETURN_NOT_OK(ReadDictionaries());
        } else {
          dictionaries_mark_.emplace();
          ALKAID_RETURN_NOT_OK(SkipNext(&*dictionaries_mark_));
        }
      } else if (key == "batches") {
        ALKAID_RETURN_NOT_OK(Once(&seen_batches_, key));
        if (seen_schema_ && (dictionaries_read_ || dictionary_fields_.empty())) return StartBatches();
        // Needed pieces may follow: come back once the document is read.
        batches_mark_.emplace();
        ALKAID_RETURN_NOT_OK(SkipNext(&*batches_mark_));
      } else {
        ALKAID_RETURN_NOT_OK(SkipNext(nullptr));
      }
    }
  }

  Status Once(bool* seen, const std::string& key) {
    if (*seen) return Status::Invalid("integration JSON: member \"", key, "\" appears twice");
    *seen = true;
    return Status::OK();
  }

  Status SkipNext(TextMark* mark) {
    TextMark here;
    ALKAID_RETURN_NOT_OK(parser_.MarkNext(mark != nullptr ? mark : &here));
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));
    return parser_.Skip(t);
  }

  Status EndOfDocument() {
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));  // nothing may follow the object
    if (!seen_schema_) return Status::Invalid("integration JSON: missing member \"schema\"");
    if (!seen_batches_) return Status::Invalid("integration JSON: missing member \"batches\"");
    if (dictionaries_mark_) {
      ALKAID_RETURN_NOT_OK(parser_.SeekTo(*dictionaries_mark_));
      dictionaries_mark_.reset();
      ALKAID_RETURN_NOT_OK(ReadDictionaries());
    }
    if (!dictionaries_read_) ALKAID_RETURN_NOT_OK(ResolveDictionaryValues());
    if (!batches_mark_) {
      phase_ = Phase::kDone;
      return Status::OK();
    }
    ALKAID_RETURN_NOT_OK(parser_.SeekTo(*batches_mark_));
    batches_mark_.reset();
    return StartBatches();
  }

  Status StartBatches() {
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));
    if (t != JsonToken::kBeginArray) {
      ALKAID_RETURN_NOT_OK(parser_.Skip(t));
      return Status::Invalid("batches: expected an array");
    }
    phase_ = Phase::kBatches;
    return Status::OK();
  }

  Status ReadSchema() {
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));
    Json schema;
    ALKAID_RETURN_NOT_OK(parser_.ReadDom(t, &schema));
    ALKAID_ASSIGN_OR_RAISE(parsed_, internal::ParseSchema(schema, "schema", options_.max_recursion_depth));
    IndexDictionaryFields(parsed_.fields, &dictionary_fields_);
    return Status::OK();
  }

  // ---------------------------------------------------------------------
  // Dictionaries

  Status ReadDictionaries() {
    JsonToken t;
    TextMark mark;
    ALKAID_RETURN_NOT_OK(parser_.MarkNext(&mark));
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));
    if (t != JsonToken::kNull) {
      if (t != JsonToken::kBeginArray) {
        ALKAID_RETURN_NOT_OK(parser_.Skip(t));
        return Status::Invalid("dictionaries: expected an array");
      }
      std::string text;
      for (size_t i = 0;; ++i) {
        ALKAID_RETURN_NOT_OK(parser_.CaptureNext(&text, &mark, &t));
        if (t == JsonToken::kEndArray) break;
        ALKAID_RETURN_NOT_OK(ReadDictionary(text, mark, "dictionaries[" + std::to_string(i) + "]"));
      }
    }
    dictionaries_read_ = true;
    return ResolveDictionaryValues();
  }

  // One dictionary from its captured text: its id first, wherever it is.
  Status ReadDictionary(const std::string& text, const TextMark& start, const std::string& path) {
    auto source = internal::MemoryText(text);
    JsonPullParser parser(source.get(),
                          std::max(1, internal::MaxJsonNesting(options_.max_recursion_depth) - kDictionaryDepth),
                          start);
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser.Next(&t));
    if (t != JsonToken::kBeginObject) return Status::Invalid(path, ": expected an object {id, data}");
    std::optional<int64_t> id;
    std::optional<TextMark> data;
    while (true) {
      ALKAID_RETURN_NOT_OK(parser.Next(&t));
      if (t == JsonToken::kEndObject) break;
      const std::string key(parser.text());
      TextMark mark;
      ALKAID_RETURN_NOT_OK(parser.MarkNext(&mark));
      ALKAID_RETURN_NOT_OK(parser.Next(&t));
      if (key == "id") {
        int64_t n;
        if (t != JsonToken::kNumber || !parser.is_integer() || !DecodeId(parser.text(), &n))
          return Status::Invalid(path, ".id: expected an integer");
        id = n;
      } else if (key == "data") {
        data = mark;
      }
      ALKAID_RETURN_NOT_OK(parser.Skip(t));
    }
    if (!id) return Status::Invalid(path, ".id: expected an integer");
    auto field = dictionary_fields_.find(*id);
    if (field == dictionary_fields_.end())
      return Status::Invalid(path, ".id: no field of the schema uses dictionary id ", *id);
    if (dictionaries_.count(*id) != 0)
      return Status::NotImplemented(path, ": dictionary id ", *id,
                                    " appears twice (deltas and replacements have no JSON form)");
    if (!data) return Status::Invalid(path, ".data: expected an object {count, columns}");
    ALKAID_RETURN_NOT_OK(parser.SeekTo(*data));
    const auto& dict_type = static_cast<const DictionaryType&>(
        internal::UnwrapExtension(*field->second->field->type()));
    ALKAID_ASSIGN_OR_RAISE(
        auto values, ReadRecordLike(&parser, path + ".data", {dict_type.value_type()},
                                    {&field->second->children}, {std::nullopt}, /*batch=*/false,
                                    &dictionary_context_));
    dictionaries_.emplace(*id, std::move(values.columns[0]));
    return Status::OK();
  }

  static bool DecodeId(std::string_view text, int64_t* out) {
    auto res = std::from_chars(text.data(), text.data() + text.size(), *out);
    return res.ec == std::errc() && res.ptr == text.data() + text.size();
  }

  // Dictionaries whose values are themselves dictionary-encoded.
  Status ResolveDictionaryValues() { return Resolve(&dictionary_context_); }

  Status Resolve(ReadContext* ctx) {
    for (internal::PendingDictionary& p : ctx->pending) {
      auto it = dictionaries_.find(p.id);
      if (it != dictionaries_.end()) {
        p.data->dictionary = it->second;
        continue;
      }
      if (p.data->length > 0)
        return Status::Invalid(p.path, ": uses dictionary id ", p.id, " but no dictionary has that id");
      // An empty column may go without a dictionary batch; give it an empty one.
      const auto& dict_type = static_cast<const DictionaryType&>(p.data->storage_type());
      ALKAID_ASSIGN_OR_RAISE(p.data->dictionary, MakeArrayOfNull(dict_type.value_type(), 0));
    }
    ctx->pending.clear();
    return Status::OK();
  }

  // ---------------------------------------------------------------------
  // Batches

  Result<RecordBatchPtr> NextUnguarded() {
    if (phase_ != Phase::kBatches) return RecordBatchPtr();
    JsonToken t;
    ALKAID_RETURN_NOT_OK(parser_.Next(&t));
    if (t == JsonToken::kEndArray) {
      // The rest of the document: members after the batches (on a first
      // visit), or nothing (on a second one, which ends with the batches).
      phase_ = Phase::kMembers;
      ALKAID_RETURN_NOT_OK(ReadMembers());
      if (phase_ != Phase::kDone) return Status::Invalid("integration JSON: member \"batches\" appears twice");
      return RecordBatchPtr();
    }
    if (t == JsonToken::kEnd) {
      phase_ = Phase::kDone;
      return RecordBatchPtr();
    }
    const std::string path = "batches[" + std::to_string(num_batches_) + "]";
    if (t != JsonToken::kBeginObject) {
      ALKAID_RETURN_NOT_OK(parser_.Skip(t));
      return Status::Invalid(path, ": expected an object {count, columns}");
    }
    const Schema& schema = *parsed_.schema;
    std::vector<DataTypePtr> types;
    std::vector<const std::vector<FieldNode>*> children;
    std::vector<std::optional<int64_t>> ids;
    for (int i = 0; i < schema.num_fields(); ++i) {
      const FieldNode& node = parsed_.fields[static_cast<size_t>(i)];
      types.push_back(node.field->type());
      children.push_back(&node.children);
      ids.push_back(node.dictionary_id);
    }
    ReadContext ctx;
    ALKAID_ASSIGN_OR_RAISE(auto read, ReadRecordLike(&parser_, path, types, children, ids,
                                                     /*batch=*/true, &ctx, /*started=*/true));
    ALKAID_RETURN_NOT_OK(Resolve(&ctx));
    auto batch = RecordBatch::Make(parsed_.schema, read.count, std::move(read.columns));
    // The checks above are local to each JSON array (counts, encodings);
    // what spans arrays (dictionary indices against the dictionary, offsets
    // against child lengths, run ends, union codes) is left to the same full
    // validation every other reader applies, so JSON cannot build what IPC
    // would refuse.
    ValidateOptions validate;
    validate.full = true;
    for (int c = 0; c < batch->num_columns(); ++c) {
      const std::string root = ColumnPath(path + ".columns", static_cast<size_t>(c), batch->column_name(c));
      validate.root_name = root;  // a view: `root` outlives the call
      ALKAID_RETURN_NOT_OK(ValidateArray(*batch->column_data(c), validate));
    }
    ++num_batches_;
    return batch;
  }

  struct RecordLike {
    int64_t count = 0;
    ArrayDataVector columns;
  };

  // An object {count, columns}: a batch (its columns as the schema's fields)
  // or a dictionary's data (one column). `started`: its "{" was taken.
  Result<RecordLike> ReadRecordLike(JsonPullParser* parser, const std::string& path,
                                    const std::vector<DataTypePtr>& types,
                                    const std::vector<const std::vector<FieldNode>*>& children,
                                    const std::vector<std::optional<int64_t>>& ids, bool batch,
                                    ReadContext* ctx, bool started = false) {
    JsonToken t;
    if (!started) {
      ALKAID_RETURN_NOT_OK(parser->Next(&t));
      if (t != JsonToken::kBeginObject) {
        ALKAID_RETURN_NOT_OK(parser->Skip(t));
        return Status::Invalid(path, ": expected an object {count, columns}");
      }
    }
    std::optional<int64_t> count;
    bool have_columns = false;
    RecordLike out;
    std::vector<std::string> paths;
    while (true) {
      ALKAID_RETURN_NOT_OK(parser->Next(&t));
      if (t == JsonToken::kEndObject) break;
      const std::string key(parser->text());
      if (key == "count") {
        ALKAID_ASSIGN_OR_RAISE(count, internal::ReadCount(parser, path + ".count"));
        continue;
      }
      ALKAID_RETURN_NOT_OK(parser->Next(&t));
      if (key != "columns") {
        ALKAID_RETURN_NOT_OK(parser->Skip(t));
        continue;
      }
      if (t != JsonToken::kBeginArray) {
        ALKAID_RETURN_NOT_OK(parser->Skip(t));
        return batch ? Status::Invalid(path, ".columns: expected an array")
                     : Status::Invalid(path, ".columns: expected an array of exactly one column");
      }
      have_columns = true;
      out.columns.clear();
      paths.clear();
      size_t i = 0;
      for (;; ++i) {
        ALKAID_RETURN_NOT_OK(parser->Next(&t));
        if (t == JsonToken::kEndArray) break;
        if (i >= types.size()) {
          ALKAID_RETURN_NOT_OK(parser->Skip(t));
          continue;  // counted for the message below
        }
        const std::string field = batch ? parsed_.schema->field(static_cast<int>(i))->name() : "";
        paths.push_back(batch ? ColumnPath(path + ".columns", i, field)
                              : path + ".columns[" + std::to_string(i) + "]");
        ColumnName name{field, batch ? static_cast<int>(i) : -1, batch};
        ALKAID_ASSIGN_OR_RAISE(
            auto column, internal::ReadColumn(parser, t, types[i], *children[i], ids[i], paths.back(),
                                              count, name, ctx));
        out.columns.push_back(std::move(column));
      }
      if (i != types.size())
        return batch ? Status::Invalid(path, ".columns: has ", i, " columns but the schema has ",
                                       types.size(), " fields")
                     : Status::Invalid(path, ".columns: expected an array of exactly one column");
    }
    if (!count) return Status::Invalid(path, ": missing member \"count\"");
    if (!have_columns)
      return batch ? Status::Invalid(path, ".columns: expected an array")
                   : Status::Invalid(path, ".columns: expected an array of exactly one column");
    // Columns read before "count" are checked against it now.
    for (size_t i = 0; i < out.columns.size(); ++i) {
      if (out.columns[i]->length != *count)
        return Status::Invalid(paths[i], ".count: is ", out.columns[i]->length, " but ", *count,
                               " is required by the parent");
    }
    out.count = *count;
    return out;
  }

  std::unique_ptr<TextSource> source_;
  IntegrationReadOptions options_;
  std::string context_;
  JsonPullParser parser_;
  Status failure_;
  Phase phase_ = Phase::kMembers;

  internal::ParsedSchema parsed_;
  std::map<int64_t, const FieldNode*> dictionary_fields_;
  std::map<int64_t, ArrayDataPtr> dictionaries_;
  ReadContext dictionary_context_;
  bool seen_schema_ = false;
  bool seen_dictionaries_ = false;
  bool seen_batches_ = false;
  bool dictionaries_read_ = false;
  std::optional<TextMark> dictionaries_mark_;
  std::optional<TextMark> batches_mark_;
  int64_t num_batches_ = 0;
};

IntegrationJsonReader::IntegrationJsonReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
IntegrationJsonReader::~IntegrationJsonReader() = default;

namespace {

Result<IntegrationFile> ReadAll(IntegrationJsonReader* reader) {
  IntegrationFile file;
  file.schema = reader->schema();
  file.dictionary_ids = reader->dictionary_ids();
  file.dictionaries = reader->dictionaries();
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto batch, reader->Next());
    if (batch == nullptr) break;
    file.batches.push_back(std::move(batch));
  }
  return file;
}

}  // namespace

Result<std::unique_ptr<IntegrationJsonReader>> IntegrationJsonReader::OpenFile(
    const std::string& path, const IntegrationReadOptions& options) {
  auto source = internal::FileText(path, options);
  if (!source.ok()) return source.status().WithContext(path);
  auto impl = std::make_unique<Impl>(std::move(*source), options, path);
  ALKAID_RETURN_NOT_OK(impl->Open());
  return std::unique_ptr<IntegrationJsonReader>(new IntegrationJsonReader(std::move(impl)));
}

Result<std::unique_ptr<IntegrationJsonReader>> IntegrationJsonReader::OpenText(
    std::string text, const IntegrationReadOptions& options) {
  auto impl = std::make_unique<Impl>(internal::MaybeGunzipText(std::move(text), options), options, "");
  ALKAID_RETURN_NOT_OK(impl->Open());
  return std::unique_ptr<IntegrationJsonReader>(new IntegrationJsonReader(std::move(impl)));
}

const SchemaPtr& IntegrationJsonReader::schema() const { return impl_->schema(); }
const DictionaryIds& IntegrationJsonReader::dictionary_ids() const { return impl_->dictionary_ids(); }
const std::map<int64_t, ArrayDataPtr>& IntegrationJsonReader::dictionaries() const {
  return impl_->dictionaries();
}
Result<RecordBatchPtr> IntegrationJsonReader::Next() { return impl_->Next(); }
int64_t IntegrationJsonReader::num_batches_read() const { return impl_->num_batches(); }

Result<IntegrationFile> ParseIntegrationJson(std::string_view text,
                                             const IntegrationReadOptions& options) {
  // The text is the caller's: read in place.
  auto impl = std::make_unique<IntegrationJsonReader::Impl>(internal::MemoryText(text), options, "");
  ALKAID_RETURN_NOT_OK(impl->Open());
  IntegrationJsonReader reader(std::move(impl));
  return ReadAll(&reader);
}

Result<IntegrationFile> ReadIntegrationFile(const std::string& path,
                                            const IntegrationReadOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto reader, IntegrationJsonReader::OpenFile(path, options));
  return ReadAll(reader.get());
}

}  // namespace alkaid::integration_json
