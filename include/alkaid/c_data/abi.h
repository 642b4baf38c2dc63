/** @file
 * The Arrow C Data Interface, C Stream Interface and C Device Data Interface:
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
/** Guard of the C Data Interface group (ArrowSchema, ArrowArray and the
 * ARROW_FLAG_* bits); whichever header defines it first supplies them. */
#define ARROW_C_DATA_INTERFACE

/** Bit of ArrowSchema.flags: the dictionary's values are in a meaningful order
 * (DictionaryType::ordered). Only meaningful when `dictionary` is set. */
#define ARROW_FLAG_DICTIONARY_ORDERED 1
/** Bit of ArrowSchema.flags: the field may contain nulls. */
#define ARROW_FLAG_NULLABLE 2
/** Bit of ArrowSchema.flags: the keys of every map entry list are sorted.
 * Only meaningful for a map ("+m") type. */
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/** The description of one type or field, as a tree: nested types have
 * children, dictionary-encoded types a dictionary. All strings are
 * NUL-terminated UTF-8.
 *
 * Ownership: the struct, and everything it points to, belongs to the producer
 * until the consumer calls `release`; a consumer may also move the struct to
 * another place by copying its bytes and setting the source's `release` to
 * NULL. Children and the dictionary are released by their parent's release
 * callback, never on their own. */
struct ArrowSchema {
  /** The type, in the specification's format-string notation: "i" for int32,
   * "u" for utf8, "+l" for list, "tsu:UTC" for a microsecond timestamp in UTC,
   * and so on. Never NULL. For a dictionary-encoded field this is the index
   * type. */
  const char* format;
  /** The field name; NULL or empty when there is none (a bare type). */
  const char* name;
  /** Key-value metadata in a binary encoding, or NULL: an int32 pair count,
   * then for each pair an int32 key length, the key bytes, an int32 value
   * length and the value bytes (integers in native byte order, strings not
   * NUL-terminated). Extension types put ARROW:extension:name and
   * ARROW:extension:metadata here. */
  const char* metadata;
  int64_t flags; /**< Bitwise OR of the ARROW_FLAG_* values. */
  int64_t n_children; /**< Number of child types (struct fields, list items...). */
  /** Array of n_children pointers to the child schemas, or NULL when
   * n_children is 0. */
  struct ArrowSchema** children;
  /** The value type when the field is dictionary-encoded, else NULL. */
  struct ArrowSchema* dictionary;
  /** Frees what the producer allocated and sets `release` to NULL; called
   * once by the consumer when done. NULL means the struct is already released
   * (or was moved from) and must not be used. */
  void (*release)(struct ArrowSchema*);
  /** Opaque producer state for `release`; consumers do not touch it. */
  void* private_data;
};

/** The data of one array (a column, or a record batch exported as a struct
 * array), laid out exactly as the Arrow columnar format describes: the
 * consumer reads the buffers in place, without copying. The type is not in
 * the struct; it travels separately as an ArrowSchema.
 *
 * Ownership works as for ArrowSchema: the producer keeps the memory alive
 * until `release` is called (once, by the consumer); children and the
 * dictionary are released by the parent. */
struct ArrowArray {
  int64_t length; /**< Number of logical elements (slots), after `offset`. */
  int64_t null_count; /**< Number of null slots, or -1 when not computed. */
  /** Index of the first logical element within the buffers, in elements, not
   * bytes (a slice); applies to this array's own buffers only, children carry
   * their own offsets. */
  int64_t offset;
  /** Number of entries in `buffers`; fixed by the type (e.g. 3 for utf8:
   * validity, offsets, data), except for the view types, which add their
   * variadic data buffers and a final buffer of their int64 sizes. */
  int64_t n_buffers;
  int64_t n_children; /**< Number of child arrays, matching the schema's. */
  /** Array of n_buffers pointers to the start of each buffer, in the order the
   * columnar format lists them. An entry may be NULL when the buffer is the
   * validity bitmap of an array with no nulls, or when it holds no bytes. */
  const void** buffers;
  /** Array of n_children pointers to the child arrays, or NULL when
   * n_children is 0. */
  struct ArrowArray** children;
  /** The dictionary values when the type is dictionary-encoded (the buffers
   * then hold the indices), else NULL. */
  struct ArrowArray* dictionary;
  /** Frees (or drops the producer's references to) the memory and sets
   * `release` to NULL; NULL means released or moved from. */
  void (*release)(struct ArrowArray*);
  /** Opaque producer state for `release`; consumers do not touch it. */
  void* private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
/** Guard of the C Device Data Interface group (ArrowDeviceArray, the device
 * type codes). */
#define ARROW_C_DEVICE_DATA_INTERFACE

/** Kind of device that holds an array's buffers: one of the ARROW_DEVICE_*
 * values. */
typedef int32_t ArrowDeviceType;

/* Device types (values fixed by the specification). */
#define ARROW_DEVICE_CPU 1 /**< Ordinary host memory; the only type alkaid imports. */
#define ARROW_DEVICE_CUDA 2 /**< Memory of a CUDA GPU. */
#define ARROW_DEVICE_CUDA_HOST 3 /**< Page-locked host memory allocated through CUDA. */
#define ARROW_DEVICE_OPENCL 4 /**< An OpenCL device. */
#define ARROW_DEVICE_VULKAN 7 /**< A Vulkan buffer. */
#define ARROW_DEVICE_METAL 8 /**< An Apple Metal buffer. */
#define ARROW_DEVICE_VPI 9 /**< Verilog simulator memory. */
#define ARROW_DEVICE_ROCM 10 /**< Memory of an AMD ROCm GPU. */
#define ARROW_DEVICE_ROCM_HOST 11 /**< Pinned host memory allocated through ROCm. */
#define ARROW_DEVICE_EXT_DEV 12 /**< Reserved for devices outside this list. */
#define ARROW_DEVICE_CUDA_MANAGED 13 /**< CUDA unified (managed) memory. */
#define ARROW_DEVICE_ONEAPI 14 /**< A device of Intel's oneAPI (SYCL). */
#define ARROW_DEVICE_WEBGPU 15 /**< A WebGPU buffer. */
#define ARROW_DEVICE_HEXAGON 16 /**< Qualcomm Hexagon DSP memory. */

/** An ArrowArray together with the device its buffers live on, so data can
 * stay on a GPU when it is handed over. alkaid exports with device_type
 * ARROW_DEVICE_CPU and imports only that type. */
struct ArrowDeviceArray {
  /** The array; its buffer pointers are addresses on the device below. Its
   * `release` releases the whole ArrowDeviceArray. */
  struct ArrowArray array;
  /** Which device of that type (e.g. the GPU ordinal); -1 when that does not
   * apply (alkaid exports -1 for the CPU). */
  int64_t device_id;
  ArrowDeviceType device_type; /**< Kind of device; an ARROW_DEVICE_* value. */
  /** Points to a device-specific event (a cudaEvent_t for CUDA) the consumer
   * must wait on before reading the buffers; NULL when no synchronisation is
   * needed (always for CPU). */
  void* sync_event;
  int64_t reserved[3]; /**< Reserved for later versions; must be zero. */
};

#endif /* ARROW_C_DEVICE_DATA_INTERFACE */

#ifndef ARROW_C_STREAM_INTERFACE
/** Guard of the C Stream Interface group (ArrowArrayStream). */
#define ARROW_C_STREAM_INTERFACE

/** A pull-style stream of arrays sharing one schema (in alkaid: record
 * batches as struct arrays). The consumer calls the callbacks, each with the
 * stream itself as first argument. The callbacks must not be called
 * concurrently on one stream; `release` may be called from any thread.
 *
 * Each callback that returns int returns 0 on success or an errno value
 * (EINVAL, ENOMEM, EIO, ...) on failure; after a failure only get_last_error
 * and release may be called. */
struct ArrowArrayStream {
  /** Fills `out` with the schema of every array of the stream; the caller
   * owns (and must release) what it receives. */
  int (*get_schema)(struct ArrowArrayStream*, struct ArrowSchema* out);
  /** Fills `out` with the next array, which the caller owns. At the end of
   * the stream it returns 0 and leaves `out` released (out->release is
   * NULL). */
  int (*get_next)(struct ArrowArrayStream*, struct ArrowArray* out);
  /** A description of the last error, NUL-terminated UTF-8, owned by the
   * stream and valid until the next call on it; may be NULL. Only meaningful
   * after a callback failed. */
  const char* (*get_last_error)(struct ArrowArrayStream*);
  /** Ends the stream and frees the producer's state; sets `release` to NULL.
   * Arrays and schemas already handed out stay valid (they have their own
   * release callbacks). */
  void (*release)(struct ArrowArrayStream*);
  /** Opaque producer state for the callbacks; consumers do not touch it. */
  void* private_data;
};

#endif /* ARROW_C_STREAM_INTERFACE */

#ifndef ARROW_C_DEVICE_STREAM_INTERFACE
/** Guard of the C Device Stream Interface group (ArrowDeviceArrayStream). */
#define ARROW_C_DEVICE_STREAM_INTERFACE

/** The device counterpart of ArrowArrayStream: the same contract, but
 * get_next yields ArrowDeviceArray structs, all on one device type. */
struct ArrowDeviceArrayStream {
  /** The kind of device every array of the stream lives on. */
  ArrowDeviceType device_type;
  /** Fills `out` with the schema of the stream; 0 or an errno value. */
  int (*get_schema)(struct ArrowDeviceArrayStream*, struct ArrowSchema* out);
  /** Fills `out` with the next device array, or leaves it released at the end
   * of the stream; 0 or an errno value. */
  int (*get_next)(struct ArrowDeviceArrayStream*, struct ArrowDeviceArray* out);
  /** Message of the last error, valid until the next call; may be NULL. */
  const char* (*get_last_error)(struct ArrowDeviceArrayStream*);
  /** Ends the stream and frees the producer's state; sets `release` to NULL. */
  void (*release)(struct ArrowDeviceArrayStream*);
  /** Opaque producer state for the callbacks; consumers do not touch it. */
  void* private_data;
};

#endif /* ARROW_C_DEVICE_STREAM_INTERFACE */

#ifdef __cplusplus
}
#endif

#endif /* ALKAID_C_DATA_ABI_H */
