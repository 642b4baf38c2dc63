// The C Stream Interface (and its device variant) over RecordBatchReader.
#include <cerrno>
#include <cstring>
#include <new>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "alkaid/c_data/bridge.h"

namespace alkaid::c_data {
namespace {

// errno value for a failed Status, as the stream callbacks report them.
int ErrnoOf(const Status& st) {
  if (st.IsIOError()) return EIO;
  if (st.IsOutOfMemory()) return ENOMEM;
  if (st.IsNotImplemented()) return ENOSYS;
  return EINVAL;
}

// Shared by the plain and the device stream: the reader and the last error.
struct StreamPrivate {
  std::shared_ptr<RecordBatchReader> reader;
  std::string last_error;

  int Fail(const Status& st) {
    try {
      last_error = st.ToString();
    } catch (const std::bad_alloc&) {
      last_error.clear();
    }
    return ErrnoOf(st);
  }

  template <typename F>
  int Run(F&& f) {
    try {
      Status st = f();
      return st.ok() ? 0 : Fail(st);
    } catch (const std::bad_alloc&) {
      return Fail(Status::OutOfMemory("out of memory in the C stream callback"));
    }
  }

  int GetSchema(ArrowSchema* out) {
    return Run([&] { return ExportSchema(*reader->schema(), out); });
  }

  // `out_array` is filled with the next batch, or marked released at the end.
  int GetNext(ArrowArray* out_array, ArrowDeviceArray* out_device) {
    return Run([&]() -> Status {
      ALKAID_ASSIGN_OR_RAISE(RecordBatchPtr batch, reader->Next());
      if (batch == nullptr) {
        if (out_device != nullptr) std::memset(out_device, 0, sizeof(*out_device));
        std::memset(out_array, 0, sizeof(*out_array));
        out_array->release = nullptr;
        return Status::OK();
      }
      if (out_device != nullptr) return ExportDeviceRecordBatch(*batch, out_device);
      return ExportRecordBatch(*batch, out_array);
    });
  }

  const char* LastError() const { return last_error.empty() ? nullptr : last_error.c_str(); }
};

template <typename S>
StreamPrivate* PrivateOf(S* stream) {
  return static_cast<StreamPrivate*>(stream->private_data);
}

// The callbacks of both stream structs (plain and device): the same code, S being the struct.
int NextInto(StreamPrivate* p, ArrowArray* out) { return p->GetNext(out, nullptr); }
int NextInto(StreamPrivate* p, ArrowDeviceArray* out) { return p->GetNext(&out->array, out); }

template <typename S>
int GetSchemaOf(S* s, ArrowSchema* out) {
  return PrivateOf(s)->GetSchema(out);
}
template <typename S, typename A>
int GetNextOf(S* s, A* out) {
  return NextInto(PrivateOf(s), out);
}
template <typename S>
const char* LastErrorOf(S* s) {
  return PrivateOf(s)->LastError();
}
template <typename S>
void ReleaseOf(S* s) {
  if (s == nullptr || s->release == nullptr) return;
  delete PrivateOf(s);
  s->release = nullptr;
  s->private_data = nullptr;
}

// `who` names the public function in errors.
template <typename S>
Status ExportStream(std::shared_ptr<RecordBatchReader> reader, S* out, const char* who) {
  if (reader == nullptr) return Status::Invalid(who, ": null reader");
  StreamPrivate* priv = new (std::nothrow) StreamPrivate;
  if (priv == nullptr) return Status::OutOfMemory("C Stream Interface export: out of memory");
  priv->reader = std::move(reader);
  if constexpr (std::is_same_v<S, ArrowDeviceArrayStream>) out->device_type = ARROW_DEVICE_CPU;
  out->get_schema = &GetSchemaOf<S>;
  out->get_next = &GetNextOf<S>;
  out->get_last_error = &LastErrorOf<S>;
  out->release = &ReleaseOf<S>;
  out->private_data = priv;
  return Status::OK();
}

// The consumer side: owns the producer's stream and imports each batch.
template <typename Stream, typename ArrayT>
class ImportedReader final : public RecordBatchReader {
 public:
  ImportedReader(const Stream& stream, const ImportOptions& options)
      : stream_(stream), options_(options) {}
  ~ImportedReader() override {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }

  Status Init() {
    ArrowSchema schema;
    std::memset(&schema, 0, sizeof(schema));
    int rc = stream_.get_schema(&stream_, &schema);
    if (rc != 0) return Error("get_schema", rc);
    ALKAID_ASSIGN_OR_RAISE(schema_, ImportSchema(&schema));
    return Status::OK();
  }

  const SchemaPtr& schema() const override { return schema_; }

  Result<RecordBatchPtr> Next() override {
    if (done_) return RecordBatchPtr();
    ArrayT out;
    std::memset(&out, 0, sizeof(out));
    int rc = stream_.get_next(&stream_, &out);
    if (rc != 0) return Error("get_next", rc);
    if constexpr (std::is_same_v<ArrayT, ArrowDeviceArray>) {
      if (out.array.release == nullptr) {
        done_ = true;
        return RecordBatchPtr();
      }
      return ImportDeviceRecordBatch(&out, schema_, options_);
    } else {
      if (out.release == nullptr) {
        done_ = true;
        return RecordBatchPtr();
      }
      return ImportRecordBatch(&out, schema_, options_);
    }
  }

 private:
  Status Error(const char* what, int rc) {
    const char* message = stream_.get_last_error ? stream_.get_last_error(&stream_) : nullptr;
    return Status::IOError("ArrowArrayStream ", what, " failed with errno ", rc, " (",
                           std::strerror(rc), ")", message ? ": " : "",
                           message ? message : "");
  }

  Stream stream_;
  ImportOptions options_;
  SchemaPtr schema_;
  bool done_ = false;
};

template <typename Stream, typename ArrayT>
Result<std::unique_ptr<RecordBatchReader>> ImportStream(Stream* stream,
                                                        const ImportOptions& options) {
  if (stream == nullptr) return Status::Invalid("ArrowArrayStream: null pointer");
  if (stream->release == nullptr) return Status::Invalid("ArrowArrayStream: struct is released");
  if (stream->get_schema == nullptr || stream->get_next == nullptr) {
    stream->release(stream);
    return Status::Invalid("ArrowArrayStream: get_schema or get_next is null");
  }
  std::unique_ptr<ImportedReader<Stream, ArrayT>> reader;
  try {
    reader = std::make_unique<ImportedReader<Stream, ArrayT>>(*stream, options);
  } catch (const std::bad_alloc&) {
    stream->release(stream);
    return Status::OutOfMemory("C Stream Interface import: out of memory");
  }
  stream->release = nullptr;  // moved into the reader
  try {
    ALKAID_RETURN_NOT_OK(reader->Init());
  } catch (const std::bad_alloc&) {
    return Status::OutOfMemory("C Stream Interface import: out of memory");
  }
  return std::unique_ptr<RecordBatchReader>(std::move(reader));
}

}  // namespace

Status ExportRecordBatchReader(std::shared_ptr<RecordBatchReader> reader, ArrowArrayStream* out) {
  return ExportStream(std::move(reader), out, "ExportRecordBatchReader");
}

Status ExportDeviceRecordBatchReader(std::shared_ptr<RecordBatchReader> reader,
                                     ArrowDeviceArrayStream* out) {
  return ExportStream(std::move(reader), out, "ExportDeviceRecordBatchReader");
}

Result<std::unique_ptr<RecordBatchReader>> ImportRecordBatchReader(ArrowArrayStream* stream,
                                                                   const ImportOptions& options) {
  return ImportStream<ArrowArrayStream, ArrowArray>(stream, options);
}

Result<std::unique_ptr<RecordBatchReader>> ImportDeviceRecordBatchReader(
    ArrowDeviceArrayStream* stream, const ImportOptions& options) {
  if (stream != nullptr && stream->release != nullptr && stream->device_type != ARROW_DEVICE_CPU) {
    stream->release(stream);
    return Status::NotImplemented("ArrowDeviceArrayStream on device type ", stream->device_type,
                                  ": only the CPU device is supported");
  }
  return ImportStream<ArrowDeviceArrayStream, ArrowDeviceArray>(stream, options);
}

}  // namespace alkaid::c_data
