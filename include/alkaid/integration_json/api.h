/// @file
/// The integration_json module (alkaid::integration_json) in one include: Arrow's
/// integration JSON format (the JSON files the Arrow implementations exchange in their
/// conformance tests; alkaid/integration_json/integration.h) and JSON literals of arrays
/// and record batches (alkaid/integration_json/array_from_json.h). This is not JSON Lines,
/// which is the jsonl module (alkaid/jsonl/api.h).
///
/// Threads: see each header.
#pragma once

#include "alkaid/integration_json/array_from_json.h"
#include "alkaid/integration_json/integration.h"
