/// @file
/// The c_data module (alkaid::c_data) in one include: the Arrow C Data, C Stream and C
/// Device Data Interfaces. alkaid/c_data/abi.h holds the ABI structs (plain C);
/// alkaid/c_data/bridge.h exports alkaid arrays, record batches and readers through them
/// and imports what other libraries (Arrow C++, pyarrow, arrow-rs, Polars, DuckDB) hand over.
///
/// Threads: see alkaid/c_data/bridge.h.
#pragma once

#include "alkaid/c_data/abi.h"
#include "alkaid/c_data/bridge.h"
