/// @file
/// Every public header of the parquet module: reading Apache Parquet files as
/// Arrow data (reader.h, metadata.h, schema.h), writing Arrow data as Parquet
/// (writer.h, writer_properties.h), and the format's enums (types.h).
#pragma once

#include "alkaid/parquet/metadata.h"
#include "alkaid/parquet/reader.h"
#include "alkaid/parquet/schema.h"
#include "alkaid/parquet/types.h"
#include "alkaid/parquet/writer.h"
#include "alkaid/parquet/writer_properties.h"
