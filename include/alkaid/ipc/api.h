/// @file
/// The ipc module (alkaid::ipc) in one include: the Arrow IPC stream and file formats.
///
/// - alkaid/ipc/reader.h: StreamReader, FileReader, StreamDecoder (push-style)
/// - alkaid/ipc/writer.h: RecordBatchWriter, MakeStreamWriter(), MakeFileWriter()
/// - alkaid/ipc/options.h: read and write options, limits for untrusted input
/// - alkaid/ipc/compression.h: LZ4 frame and ZSTD buffer compression
///
/// Threads: see each header.
#pragma once

#include "alkaid/ipc/compression.h"
#include "alkaid/ipc/message.h"
#include "alkaid/ipc/options.h"
#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"
