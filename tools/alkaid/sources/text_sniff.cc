#include "text_sniff.h"

namespace alkaid::cli {

namespace {

std::string_view TrimLeft(std::string_view v) {
  size_t i = 0;
  while (i < v.size() && (v[i] == ' ' || v[i] == '\t' || v[i] == '\r' || v[i] == '\n')) ++i;
  return v.substr(i);
}

std::string_view TrimRight(std::string_view v) {
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t' || v.back() == '\r'))
    v.remove_suffix(1);
  return v;
}

}  // namespace

bool LooksLikeText(std::string_view v) {
  for (unsigned char c : v)
    if (c < 0x20 && c != '\t' && c != '\r' && c != '\n') return false;
  return !v.empty();
}

std::string_view TextBody(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
  return TrimLeft(head);
}

std::string_view FirstLine(std::string_view v) {
  size_t nl = v.find('\n');
  return nl == std::string_view::npos ? v : v.substr(0, nl);
}

bool FirstLinesCut(std::string_view head) {
  if (!LooksLikeText(head)) return false;
  std::string_view body = TextBody(head);
  size_t nl = body.find('\n');
  return nl == std::string_view::npos || body.find('\n', nl + 1) == std::string_view::npos;
}

bool LooksLikeJsonLines(std::string_view head) {
  std::string_view body = TextBody(head);
  if (body.empty() || body[0] != '{') return false;
  std::string_view first = TrimRight(FirstLine(body));
  std::string_view next = TrimLeft(body.substr(first.size()));
  return first.size() > 1 && first.back() == '}' && !next.empty() && next[0] == '{';
}

}  // namespace alkaid::cli
