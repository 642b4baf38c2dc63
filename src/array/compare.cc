// STUB: replaced by the comparison work.
#include "alkaid/compare.h"
namespace alkaid {
bool ArrayEquals(const ArrayData&, const ArrayData&, const EqualOptions&) { return false; }
std::string ArrayDiff(const ArrayData&, const ArrayData&, const EqualOptions&) { return "not implemented"; }
}  // namespace alkaid
