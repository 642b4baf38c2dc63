// STUB: replaced by the pretty printer work.
#include "alkaid/pretty_print.h"
namespace alkaid {
Status PrettyPrint(const ArrayData&, const PrettyPrintOptions&, std::ostream*) { return Status::NotImplemented("pretty print"); }
std::string PrettyPrintToString(const ArrayData&, const PrettyPrintOptions&) { return ""; }
std::string FormatValue(const ArrayData&, int64_t) { return ""; }
}  // namespace alkaid
