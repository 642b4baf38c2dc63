#include "alkaid/status.h"

#include <cstdio>
#include <cstdlib>

namespace alkaid {

const char* StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalid: return "Invalid";
    case StatusCode::kTypeError: return "Type error";
    case StatusCode::kIndexError: return "Index error";
    case StatusCode::kKeyError: return "Key error";
    case StatusCode::kOutOfMemory: return "Out of memory";
    case StatusCode::kIOError: return "IO error";
    case StatusCode::kNotImplemented: return "Not implemented";
    case StatusCode::kSerializationError: return "Serialization error";
    case StatusCode::kCapacityError: return "Capacity error";
    case StatusCode::kUnknownError: return "Unknown error";
  }
  return "Unknown error";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk)
    state_ = StatePtr(new State{code, std::move(message), nullptr});
}

Status::StatePtr Status::CopyState(const State& state) { return StatePtr(new State(state)); }

void Status::StateDeleter::operator()(const State* state) const noexcept { delete state; }

const std::string& Status::message() const {
  static const std::string empty;
  return state_ ? state_->message : empty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return std::string(StatusCodeName(code())) + ": " + state_->message;
}

Status Status::WithContext(const std::string& context) const {
  if (ok()) return *this;
  Status out;
  out.state_ = StatePtr(new State{state_->code, context + ": " + state_->message, state_->detail});
  return out;
}

Status Status::WithDetail(StatusDetail detail) const {
  if (ok()) return *this;
  Status out;
  out.state_ = StatePtr(new State{state_->code, state_->message,
                                  std::make_shared<const StatusDetail>(std::move(detail))});
  return out;
}

void Status::Abort(const char* where) const {
  std::fprintf(stderr, "alkaid fatal%s%s: %s\n", where ? " in " : "", where ? where : "",
               ToString().c_str());
  std::abort();
}

}  // namespace alkaid
