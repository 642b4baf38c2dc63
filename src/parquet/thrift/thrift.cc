// The Thrift entry points of thrift.h, instantiated for the format's top-level structs.
#include "src/parquet/thrift/thrift.h"

#include "src/parquet/thrift/compact.h"

namespace alkaid::parquet::thrift {

template <typename T>
Status DeserializeThrift(const uint8_t* data, size_t size, T* out, size_t* consumed,
                         const ThriftLimits& limits) {
  CompactReader reader(data, size, limits);
  *out = T{};
  ALKAID_RETURN_NOT_OK(reader.ReadTop(out));
  if (consumed != nullptr) *consumed = reader.consumed();
  return Status::OK();
}

template <typename T>
void SerializeThrift(const T& value, std::string* out) {
  CompactWriter(out).WriteStruct(value);
}

#define ALKAID_PARQUET_THRIFT_INSTANTIATE(T)                                        \
  template Status DeserializeThrift<format::T>(const uint8_t*, size_t, format::T*, \
                                               size_t*, const ThriftLimits&);       \
  template void SerializeThrift<format::T>(const format::T&, std::string*);
ALKAID_PARQUET_THRIFT_INSTANTIATE(FileMetaData)
ALKAID_PARQUET_THRIFT_INSTANTIATE(FileCryptoMetaData)
ALKAID_PARQUET_THRIFT_INSTANTIATE(PageHeader)
ALKAID_PARQUET_THRIFT_INSTANTIATE(ColumnMetaData)
ALKAID_PARQUET_THRIFT_INSTANTIATE(ColumnIndex)
ALKAID_PARQUET_THRIFT_INSTANTIATE(OffsetIndex)
ALKAID_PARQUET_THRIFT_INSTANTIATE(BloomFilterHeader)
#undef ALKAID_PARQUET_THRIFT_INSTANTIATE

}  // namespace alkaid::parquet::thrift
