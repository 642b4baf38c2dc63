/* The Arrow C Data Interface, C Stream Interface and C Device Data Interface:
 * the ABI structs every Arrow implementation agrees on, written from the
 * specification's field lists (docs/source/format/CDataInterface.rst,
 * CStreamInterface.rst, CDeviceDataInterface.rst in apache/arrow).
 *
 * Plain C, so C producers and consumers can include it. Each group sits behind
 * the guard macro the specification names, so this header coexists with any
 * other header (nanoarrow, Arrow C++, DuckDB) that defines the same ABI: the
 * first definition wins and the layouts are identical by construction. */
#ifndef ALKAID_C_DATA_ABI_H
#define ALKAID_C_DATA_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

/* Bits of ArrowSchema.flags. */
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

struct ArrowSchema {
  const char* format;   /* type in the format-string mini language, e.g. "i", "+l" */
  const char* name;     /* field name; may be NULL */
  const char* metadata; /* binary key-value metadata; may be NULL */
  int64_t flags;        /* ARROW_FLAG_* bits */
  int64_t n_children;
  struct ArrowSchema** children;
  struct ArrowSchema* dictionary; /* value type when dictionary encoded, else NULL */
  /* NULL once released (or moved from). */
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  int64_t null_count; /* -1 when not computed */
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void** buffers;
  struct ArrowArray** children;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
  void* private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
#define ARROW_C_DEVICE_DATA_INTERFACE

typedef int32_t ArrowDeviceType;

/* Device types (values fixed by the specification). */
#define ARROW_DEVICE_CPU 1
#define ARROW_DEVICE_CUDA 2
#define ARROW_DEVICE_CUDA_HOST 3
#define ARROW_DEVICE_OPENCL 4
#define ARROW_DEVICE_VULKAN 7
#define ARROW_DEVICE_METAL 8
#define ARROW_DEVICE_VPI 9
#define ARROW_DEVICE_ROCM 10
#define ARROW_DEVICE_ROCM_HOST 11
#define ARROW_DEVICE_EXT_DEV 12
#define ARROW_DEVICE_CUDA_MANAGED 13
#define ARROW_DEVICE_ONEAPI 14
#define ARROW_DEVICE_WEBGPU 15
#define ARROW_DEVICE_HEXAGON 16

struct ArrowDeviceArray {
  struct ArrowArray array;
  int64_t device_id;
  ArrowDeviceType device_type;
  void* sync_event; /* NULL when no synchronisation is needed (always for CPU) */
  int64_t reserved[3]; /* zero */
};

#endif /* ARROW_C_DEVICE_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE

struct ArrowArrayStream {
  /* Each returns 0 or an errno value; after an error only get_last_error and
   * release may be called. get_next marks the end by releasing nothing and
   * returning an ArrowArray whose release is NULL. */
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  /* Message of the last error, valid until the next call; may be NULL. */
  const char* (*get_last_error)(struct ArrowArrayStream*);
  void (*release)(struct ArrowArrayStream*);
  void* private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#ifndef ARROW_C_DEVICE_STREAM_INTERFACE
#define ARROW_C_DEVICE_STREAM_INTERFACE

struct ArrowDeviceArrayStream {
  ArrowDeviceType device_type;
  int (*get_schema)(struct ArrowDeviceArrayStream*, struct ArrowSchema* out);
  int (*get_next)(struct ArrowDeviceArrayStream*, struct ArrowDeviceArray* out);
  const char* (*get_last_error)(struct ArrowDeviceArrayStream*);
  void (*release)(struct ArrowDeviceArrayStream*);
  void* private_data;
};

#endif /* ARROW_C_DEVICE_STREAM_INTERFACE */

#ifdef __cplusplus
}
#endif

#endif /* ALKAID_C_DATA_ABI_H */
