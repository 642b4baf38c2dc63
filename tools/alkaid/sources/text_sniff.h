// Small judgements about text that several sources make on the first bytes.
#pragma once

#include <string_view>

namespace alkaid::cli {

// No NUL and no control bytes other than tab, CR and LF (UTF-8 is fine).
bool LooksLikeText(std::string_view head);
// `head` without a UTF-8 byte order mark and leading blanks.
std::string_view TextBody(std::string_view head);
// Up to the first LF (excluded).
std::string_view FirstLine(std::string_view text);
// Text whose first two lines are not both within `head`.
bool FirstLinesCut(std::string_view head);
// One complete JSON object on the first line, another object after it.
bool LooksLikeJsonLines(std::string_view head);

}  // namespace alkaid::cli
