/// @file
/// The io part of alkaid::core, in one include: byte sources (files, memory-mapped files,
/// buffers; alkaid/io/input.h) and byte sinks (files written atomically, growing buffers;
/// alkaid/io/output.h) that the IPC, CSV and JSON Lines readers and writers use.
///
/// Threads: see each header; a stream is used by one thread at a time.
#pragma once

#include "alkaid/io/input.h"
#include "alkaid/io/atomic_file.h"
#include "alkaid/io/output.h"
