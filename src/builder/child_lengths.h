// Struct fields and sparse union children hold one value per slot of their
// parent: the check both builders make before Finish.
#pragma once

#include "alkaid/builder/base.h"
#include "alkaid/status.h"

namespace alkaid::builder_internal {

// Invalid naming the first child of `b` whose length is not b.length()
// (`child` names a child, e.g. "field"; `parent` the parent, e.g. "the
// struct"); OK when there is none.
inline Status CheckOneValuePerSlot(const ArrayBuilder& b, const char* child,
                                   const char* parent) {
  for (int i = 0; i < b.num_children(); ++i) {
    if (b.child(i)->length() != b.length()) {
      return Status::Invalid(b.type()->ToString(), " builder: ", child, " ", i, " '",
                             b.type()->field(i)->name(), "' has ", b.child(i)->length(),
                             " values but ", parent, " has ", b.length(), " slots");
    }
  }
  return Status::OK();
}

}  // namespace alkaid::builder_internal
