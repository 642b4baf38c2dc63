// Conversions between the public value types of alkaid/flight/types.h and the protobuf
// messages generated from format/Flight.proto. Only the Flight sources include this: the
// generated types never appear in a public header.
#pragma once

#include <type_traits>

#include "alkaid/flight/types.h"
#include "alkaid/flight_proto/Flight.pb.h"
#include "alkaid/status.h"

namespace alkaid::flight::proto {

namespace pb = ::arrow::flight::protocol;

void ToProto(const FlightDescriptor& in, pb::FlightDescriptor* out);
void ToProto(const Ticket& in, pb::Ticket* out);
void ToProto(const FlightEndpoint& in, pb::FlightEndpoint* out);
void ToProto(const FlightInfo& in, pb::FlightInfo* out);
void ToProto(const PollInfo& in, pb::PollInfo* out);
void ToProto(const SchemaResult& in, pb::SchemaResult* out);
void ToProto(const Criteria& in, pb::Criteria* out);
void ToProto(const Action& in, pb::Action* out);
void ToProto(const ActionResult& in, pb::Result* out);
void ToProto(const ActionType& in, pb::ActionType* out);
void ToProto(const CancelFlightInfoRequest& in, pb::CancelFlightInfoRequest* out);
void ToProto(const CancelFlightInfoResult& in, pb::CancelFlightInfoResult* out);
void ToProto(const RenewFlightEndpointRequest& in, pb::RenewFlightEndpointRequest* out);
void ToProto(const SetSessionOptionsRequest& in, pb::SetSessionOptionsRequest* out);
void ToProto(const SetSessionOptionsResult& in, pb::SetSessionOptionsResult* out);
void ToProto(const GetSessionOptionsResult& in, pb::GetSessionOptionsResult* out);
void ToProto(const CloseSessionStatus& in, pb::CloseSessionResult* out);

// FromProto never fails on values protobuf accepted, except for out-of-range enum values and
// timestamps, which give Invalid naming the field.
Status FromProto(const pb::FlightDescriptor& in, FlightDescriptor* out);
Status FromProto(const pb::Ticket& in, Ticket* out);
Status FromProto(const pb::FlightEndpoint& in, FlightEndpoint* out);
Status FromProto(const pb::FlightInfo& in, FlightInfo* out);
Status FromProto(const pb::PollInfo& in, PollInfo* out);
Status FromProto(const pb::SchemaResult& in, SchemaResult* out);
Status FromProto(const pb::Criteria& in, Criteria* out);
Status FromProto(const pb::Action& in, Action* out);
Status FromProto(const pb::Result& in, ActionResult* out);
Status FromProto(const pb::ActionType& in, ActionType* out);
Status FromProto(const pb::CancelFlightInfoRequest& in, CancelFlightInfoRequest* out);
Status FromProto(const pb::CancelFlightInfoResult& in, CancelFlightInfoResult* out);
Status FromProto(const pb::RenewFlightEndpointRequest& in, RenewFlightEndpointRequest* out);
Status FromProto(const pb::SetSessionOptionsRequest& in, SetSessionOptionsRequest* out);
Status FromProto(const pb::SetSessionOptionsResult& in, SetSessionOptionsResult* out);
Status FromProto(const pb::GetSessionOptionsResult& in, GetSessionOptionsResult* out);
Status FromProto(const pb::CloseSessionResult& in, CloseSessionStatus* out);

// Parses untrusted protobuf bytes of message type P and converts them to T. `what` names the
// message in errors.
template <typename T, typename P>
Result<T> ParseAs(std::string_view bytes, const char* what) {
  P message;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Status::SerializationError("Flight: ", bytes.size(), " bytes do not parse as ", what);
  }
  T value;
  ALKAID_RETURN_NOT_OK(FromProto(message, &value));
  return value;
}

// `value` as the message M: itself when it is one, else converted by ToProto.
template <typename M, typename T>
decltype(auto) AsMessage(const T& value) {
  if constexpr (std::is_same_v<T, M>) {
    return (value);  // a reference, no copy
  } else {
    M message;
    ToProto(value, &message);
    return message;
  }
}

template <typename P, typename T>
std::string SerializeAs(const T& value) {
  P message;
  ToProto(value, &message);
  return message.SerializeAsString();
}

}  // namespace alkaid::flight::proto
