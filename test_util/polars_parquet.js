// Test-only driver of Polars (npm nodejs-polars) for src/parquet/polars_interop_test.cc.
//   node polars_parquet.js read IN.parquet OUT.arrow
//     Polars reads IN.parquet and writes what it read as an Arrow IPC file; prints the
//     Polars dtype of every column as JSON.
//   node polars_parquet.js write OUT.parquet OUT.arrow ROWS CODEC STATISTICS ROW_GROUP_ROWS
//     Polars builds a frame of ROWS rows (every Polars type, nulls), writes it to OUT.parquet
//     (CODEC: uncompressed, snappy, gzip, lz4, zstd, brotli; STATISTICS: true/false;
//     ROW_GROUP_ROWS: 0 for Polars' defaults, through DataFrame.writeParquet) and the same
//     frame to OUT.arrow, the truth the test compares alkaid's read of OUT.parquet with.
// The package is found through NODE_PATH (the test sets it to third_party/polars/node_modules).
"use strict";
const pl = require("nodejs-polars");

function fail(message) {
  process.stderr.write("polars_parquet.js: " + message + "\n");
  process.exit(2);
}

// Polars' dtype of every column; nodejs-polars cannot turn some (Binary, Float16) into JS
// values, which then print as "?".
function dtypes(df) {
  const out = {};
  for (const name of df.columns) {
    try {
      out[name] = String(df.getColumn(name).dtype);
    } catch (e) {
      out[name] = "?";
    }
  }
  return JSON.stringify(out);
}

// Row i's value of each column: nulls at every 7th row (from row 3), values that use the
// whole range of the type (negative, large, non-ASCII, empty).
function frame(rows) {
  const n = (f) => Array.from({ length: rows }, (_, i) => (i % 7 === 3 ? null : f(i)));
  // nodejs-polars turns BigInt into null: values past 2^53 are made by Polars' own
  // arithmetic below.
  const big = (i) => (i - 1500) * 7919 * (i % 2 ? -1 : 1);
  const words = ["", "alkaid", "Polars", "\u00e9t\u00e9", "\u6f22\u5b57", "a longer string value"];
  const cols = [
    pl.Series("bool", n((i) => i % 3 === 0), pl.Bool),
    pl.Series("i8", n((i) => (i % 256) - 128), pl.Int8),
    pl.Series("i16", n((i) => ((i * 37) % 65536) - 32768), pl.Int16),
    pl.Series("i32", n((i) => (i * 2654435761) % 2147483647 - 1073741823), pl.Int32),
    pl.Series("i64", n(big), pl.Int64),
    pl.Series("u8", n((i) => i % 256), pl.UInt8),
    pl.Series("u16", n((i) => (i * 31) % 65536), pl.UInt16),
    pl.Series("u32", n((i) => (i * 2654435761) % 4294967296), pl.UInt32),
    pl.Series("u64", n((i) => i * 1000003), pl.UInt64),
    pl.Series("f32", n((i) => (i - 1000) / 8), pl.Float32),
    pl.Series("f64", n((i) => (i - 1500) * 1.25e-3 + i * 1e10), pl.Float64),
    pl.Series("str", n((i) => words[i % words.length] + (i % 5 === 0 ? String(i) : "")), pl.String),
    pl.Series("cat", n((i) => words[i % 4]), pl.String).cast(pl.Categorical),
    pl.Series("date", n((i) => i * 13 - 20000), pl.Int32).cast(pl.Date),
    pl.Series("dt_ms", n((i) => big(i) * 1000003), pl.Int64).cast(pl.Datetime("ms")),
    pl.Series("dt_us", n((i) => big(i) * 1000000007), pl.Int64).cast(pl.Datetime("us")),
    pl.Series("dt_ns_utc", n((i) => big(i) * 1000000007), pl.Int64).cast(pl.Datetime("ns", "UTC")),
    pl.Series("time", n((i) => (i * 28800000013) % 86400000000000), pl.Int64).cast(pl.Time),
    pl.Series("dur_us", n((i) => big(i) * 1000000007), pl.Int64).cast(pl.Duration("us")),
    pl.Series("dec", n((i) => String((i - 1500) * 3) + ".25"), pl.String).cast(pl.Decimal(12, 2)),
    pl.Series("list_i32", n((i) => Array.from({ length: i % 4 }, (_, k) => i * 10 + k)),
              pl.List(pl.Int32)),
    pl.Series("list_str", n((i) => Array.from({ length: i % 3 }, (_, k) => words[(i + k) % 6])),
              pl.List(pl.String)),
  ];
  let df = pl.DataFrame(cols);
  df = df.withColumns(
    pl.col("i64").mul(pl.lit(1000000007).cast(pl.Int64)),
    pl.col("u64").mul(pl.lit(3000000000).cast(pl.UInt64)),
    pl.col("dt_ns_utc").cast(pl.Int64).mul(pl.lit(1000).cast(pl.Int64)).cast(pl.Datetime("ns", "UTC")));
  // A struct column built from two others (with a null struct where both are null).
  df = df.withColumns(pl.struct([pl.col("i32").alias("a"), pl.col("str").alias("b")]).alias("struct"));
  return df;
}

const [command, ...args] = process.argv.slice(2);
try {
  if (command === "read") {
    if (args.length !== 2) fail("read IN.parquet OUT.arrow");
    const df = pl.readParquet(args[0]);
    df.rechunk().writeIPC(args[1]);
    process.stdout.write(dtypes(df) + "\n");
  } else if (command === "write") {
    if (args.length !== 6) fail("write OUT.parquet OUT.arrow ROWS CODEC STATISTICS ROW_GROUP_ROWS");
    const [parquet, ipc, rows, codec, statistics, groupRows] = args;
    const df = frame(Number(rows));
    if (Number(groupRows) === 0) {
      df.writeParquet(parquet, { compression: codec });
    } else {
      df.lazy().sinkParquet(parquet, {
        compression: codec,
        statistics: statistics === "true",
        rowGroupSize: Number(groupRows),
      }).collectSync();
    }
    df.rechunk().writeIPC(ipc);
    process.stdout.write(dtypes(df) + "\n");
  } else {
    fail("unknown command " + JSON.stringify(command) + " (read or write)");
  }
} catch (e) {
  fail(String(e && e.stack ? e.stack : e));
}
