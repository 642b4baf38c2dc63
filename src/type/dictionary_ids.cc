#include "alkaid/dictionary_ids.h"

namespace alkaid {

namespace {

void AssignInto(const DataType& type, FieldPath* path, int64_t* next, DictionaryIds* out) {
  const DataType* walk = &type;
  if (walk->id() == TypeId::kDictionary) {
    out->Set(*path, (*next)++);
    walk = static_cast<const DictionaryType*>(walk)->value_type().get();
  }
  while (walk->id() == TypeId::kExtension) walk = static_cast<const ExtensionType*>(walk)->storage_type().get();
  for (int i = 0; i < walk->num_fields(); ++i) {
    path->push_back(i);
    AssignInto(*walk->field(i)->type(), path, next, out);
    path->pop_back();
  }
}

}  // namespace

DictionaryIds DictionaryIds::AssignSequential(const Schema& schema) {
  DictionaryIds ids;
  int64_t next = 0;
  FieldPath path;
  for (int i = 0; i < schema.num_fields(); ++i) {
    path.push_back(i);
    AssignInto(*schema.field(i)->type(), &path, &next, &ids);
    path.pop_back();
  }
  return ids;
}

}  // namespace alkaid
