/// @file
/// Builders: append values one slot at a time and get a valid ArrayData back.
///
/// Every builder derives from ArrayBuilder, whose virtual methods (AppendNull,
/// AppendEmptyValue, Finish, ...) are meant to be called once per builder
/// operation. The typed Append methods of the concrete builders are inline and
/// non-virtual, and grow their buffers geometrically so appends are amortized
/// O(1). The validity bitmap is only allocated when the first null arrives.
///
/// Nested builders own their child builders; the caller appends the parent slot
/// first (ListBuilder::Append, StructBuilder::Append, union Append(code)) and
/// then the child values. MakeBuilder() creates a builder tree for any type:
///
/// @code
///   ALKAID_ASSIGN_OR_RAISE(auto builder, MakeBuilderAs<ListBuilder>(list(int32())));
///   auto* ints = static_cast<Int32Builder*>(builder->value_builder());
///   ALKAID_RETURN_NOT_OK(builder->Append());
///   ALKAID_RETURN_NOT_OK(ints->Append(7));
///   ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, builder->Finish());
/// @endcode
///
/// Results: ArrayData is the one physical representation; a typed Array is a
/// cheap view over it. A builder hands out either, whichever the caller wants:
///
/// @code
///   ALKAID_ASSIGN_OR_RAISE(ArrayDataPtr data, builder.Finish());      // the data
///   ALKAID_ASSIGN_OR_RAISE(ArrayPtr array, builder.FinishArray());    // a typed view
///   std::shared_ptr<Int32Array> ints;
///   ALKAID_RETURN_NOT_OK(builder.Finish(&ints));                      // Arrow C++ style
/// @endcode
///
/// and RecordBatch, ChunkedArray and Table accept both ArrayPtr and ArrayDataPtr
/// columns (see alkaid/table.h).
///
/// Every typed builder also takes std::optional values (std::nullopt appends a
/// null), and the binary-like builders take whole vectors of strings:
///
/// @code
///   StringBuilder names;
///   ALKAID_RETURN_NOT_OK(names.AppendValues({"ada", "bob"}));
///   ALKAID_RETURN_NOT_OK(names.AppendValues(more_names, std::vector<bool>{true, false}));
///   ALKAID_RETURN_NOT_OK(names.Append(std::optional<std::string>()));  // a null
/// @endcode
///
/// The builders by family, one header each (this header includes them all):
///
/// - alkaid/builder/base.h: ArrayBuilder, MakeBuilder(), MakeBuilderAs()
/// - alkaid/builder/primitive.h: NullBuilder, BooleanBuilder, NumericBuilder
///   (Int32Builder, DoubleBuilder, TimestampBuilder, ...)
/// - alkaid/builder/binary.h: FixedSizeBinaryBuilder, BinaryBuilder, StringBuilder,
///   their large forms, BinaryViewBuilder
/// - alkaid/builder/decimal.h: DecimalBuilder, ParseDecimal()
/// - alkaid/builder/nested.h: ListBuilder, ListViewBuilder, their large forms,
///   FixedSizeListBuilder, StructBuilder, MapBuilder
/// - alkaid/builder/union.h: SparseUnionBuilder, DenseUnionBuilder
/// - alkaid/builder/dictionary.h: DictionaryBuilder
/// - alkaid/builder/run_end.h: RunEndEncodedBuilder
/// - alkaid/builder/extension.h: ExtensionBuilder
/// - alkaid/builder/buffer_builder.h: BufferBuilder, the growable byte area under them all
///
/// Threads: a builder is single-threaded; different builders are independent.
#pragma once

#include "alkaid/builder/base.h"
#include "alkaid/builder/binary.h"
#include "alkaid/builder/buffer_builder.h"
#include "alkaid/builder/decimal.h"
#include "alkaid/builder/dictionary.h"
#include "alkaid/builder/extension.h"
#include "alkaid/builder/nested.h"
#include "alkaid/builder/primitive.h"
#include "alkaid/builder/run_end.h"
#include "alkaid/builder/union.h"
