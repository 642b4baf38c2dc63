#include "alkaid/version.h"

namespace alkaid {

const char* Version() { return ALKAID_VERSION_STRING; }
int VersionNumber() { return ALKAID_VERSION_NUMBER; }

}  // namespace alkaid
