// Public value types <-> generated protobuf messages, and the public Serialize/Deserialize
// built on them.
#include "protobuf.h"

#include "alkaid/ipc/reader.h"
#include "alkaid/ipc/writer.h"

namespace alkaid::flight::proto {

namespace {

void ToProto(const Timestamp& in, google::protobuf::Timestamp* out) {
  auto ns = in.time_since_epoch().count();
  int64_t seconds = ns / 1'000'000'000;
  int64_t nanos = ns % 1'000'000'000;
  if (nanos < 0) {
    nanos += 1'000'000'000;
    --seconds;
  }
  out->set_seconds(seconds);
  out->set_nanos(static_cast<int32_t>(nanos));
}

Status FromProto(const google::protobuf::Timestamp& in, Timestamp* out, const char* field) {
  // The range protobuf allows (years 1-9999) fits int64 nanoseconds only up to 2262.
  constexpr int64_t kMaxSeconds = INT64_MAX / 1'000'000'000 - 1;
  if (in.seconds() > kMaxSeconds || in.seconds() < -kMaxSeconds || in.nanos() < 0 ||
      in.nanos() >= 1'000'000'000) {
    return Status::Invalid("Flight: ", field, " timestamp (", in.seconds(), " s, ", in.nanos(),
                           " ns) is out of the representable range");
  }
  *out = Timestamp(std::chrono::nanoseconds(in.seconds() * 1'000'000'000 + in.nanos()));
  return Status::OK();
}

template <typename E>
Status EnumInRange(int value, int max, const char* what, E* out) {
  if (value < 0 || value > max) {
    return Status::Invalid("Flight: ", what, " has unknown value ", value);
  }
  *out = static_cast<E>(value);
  return Status::OK();
}

void ToProto(const SessionOptionValue& in, pb::SessionOptionValue* out) {
  struct Visitor {
    pb::SessionOptionValue* out;
    void operator()(std::monostate) const {}
    void operator()(const std::string& v) const { out->set_string_value(v); }
    void operator()(bool v) const { out->set_bool_value(v); }
    void operator()(int64_t v) const { out->set_int64_value(v); }
    void operator()(double v) const { out->set_double_value(v); }
    void operator()(const std::vector<std::string>& v) const {
      auto* list = out->mutable_string_list_value();
      for (const auto& s : v) list->add_values(s);
    }
  };
  std::visit(Visitor{out}, in);
}

SessionOptionValue FromProto(const pb::SessionOptionValue& in) {
  switch (in.option_value_case()) {
    case pb::SessionOptionValue::kStringValue: return in.string_value();
    case pb::SessionOptionValue::kBoolValue: return in.bool_value();
    case pb::SessionOptionValue::kInt64Value: return static_cast<int64_t>(in.int64_value());
    case pb::SessionOptionValue::kDoubleValue: return in.double_value();
    case pb::SessionOptionValue::kStringListValue:
      return std::vector<std::string>(in.string_list_value().values().begin(),
                                      in.string_list_value().values().end());
    default: return std::monostate{};
  }
}

}  // namespace

void ToProto(const FlightDescriptor& in, pb::FlightDescriptor* out) {
  out->set_type(static_cast<pb::FlightDescriptor::DescriptorType>(in.type));
  out->set_cmd(in.cmd);
  for (const auto& p : in.path) out->add_path(p);
}
void ToProto(const Ticket& in, pb::Ticket* out) { out->set_ticket(in.ticket); }
void ToProto(const FlightEndpoint& in, pb::FlightEndpoint* out) {
  ToProto(in.ticket, out->mutable_ticket());
  for (const auto& l : in.locations) out->add_location()->set_uri(l.uri);
  if (in.expiration_time) ToProto(*in.expiration_time, out->mutable_expiration_time());
  out->set_app_metadata(in.app_metadata);
}
void ToProto(const FlightInfo& in, pb::FlightInfo* out) {
  out->set_schema(in.schema);
  ToProto(in.descriptor, out->mutable_flight_descriptor());
  for (const auto& e : in.endpoints) ToProto(e, out->add_endpoint());
  out->set_total_records(in.total_records);
  out->set_total_bytes(in.total_bytes);
  out->set_ordered(in.ordered);
  out->set_app_metadata(in.app_metadata);
}
void ToProto(const PollInfo& in, pb::PollInfo* out) {
  if (in.info) ToProto(*in.info, out->mutable_info());
  if (in.descriptor) ToProto(*in.descriptor, out->mutable_flight_descriptor());
  if (in.progress) out->set_progress(*in.progress);
  if (in.expiration_time) ToProto(*in.expiration_time, out->mutable_expiration_time());
}
void ToProto(const SchemaResult& in, pb::SchemaResult* out) { out->set_schema(in.schema); }
void ToProto(const Criteria& in, pb::Criteria* out) { out->set_expression(in.expression); }
void ToProto(const Action& in, pb::Action* out) {
  out->set_type(in.type);
  out->set_body(in.body);
}
void ToProto(const ActionResult& in, pb::Result* out) { out->set_body(in.body); }
void ToProto(const ActionType& in, pb::ActionType* out) {
  out->set_type(in.type);
  out->set_description(in.description);
}
void ToProto(const CancelFlightInfoRequest& in, pb::CancelFlightInfoRequest* out) {
  ToProto(in.info, out->mutable_info());
}
void ToProto(const CancelFlightInfoResult& in, pb::CancelFlightInfoResult* out) {
  out->set_status(static_cast<pb::CancelStatus>(in.status));
}
void ToProto(const RenewFlightEndpointRequest& in, pb::RenewFlightEndpointRequest* out) {
  ToProto(in.endpoint, out->mutable_endpoint());
}
void ToProto(const SetSessionOptionsRequest& in, pb::SetSessionOptionsRequest* out) {
  for (const auto& [k, v] : in.options) ToProto(v, &(*out->mutable_session_options())[k]);
}
void ToProto(const SetSessionOptionsResult& in, pb::SetSessionOptionsResult* out) {
  for (const auto& [k, v] : in.errors) {
    (*out->mutable_errors())[k].set_value(
        static_cast<pb::SetSessionOptionsResult::ErrorValue>(v));
  }
}
void ToProto(const GetSessionOptionsResult& in, pb::GetSessionOptionsResult* out) {
  for (const auto& [k, v] : in.options) ToProto(v, &(*out->mutable_session_options())[k]);
}
void ToProto(const CloseSessionStatus& in, pb::CloseSessionResult* out) {
  out->set_status(static_cast<pb::CloseSessionResult::Status>(in));
}

Status FromProto(const pb::FlightDescriptor& in, FlightDescriptor* out) {
  ALKAID_RETURN_NOT_OK(EnumInRange(in.type(), 2, "FlightDescriptor.type", &out->type));
  out->cmd = in.cmd();
  out->path.assign(in.path().begin(), in.path().end());
  return Status::OK();
}
Status FromProto(const pb::Ticket& in, Ticket* out) {
  out->ticket = in.ticket();
  return Status::OK();
}
Status FromProto(const pb::FlightEndpoint& in, FlightEndpoint* out) {
  ALKAID_RETURN_NOT_OK(FromProto(in.ticket(), &out->ticket));
  out->locations.clear();
  for (const auto& l : in.location()) out->locations.push_back(Location{l.uri()});
  out->expiration_time.reset();
  if (in.has_expiration_time()) {
    Timestamp t;
    ALKAID_RETURN_NOT_OK(FromProto(in.expiration_time(), &t, "FlightEndpoint.expiration_time"));
    out->expiration_time = t;
  }
  out->app_metadata = in.app_metadata();
  return Status::OK();
}
Status FromProto(const pb::FlightInfo& in, FlightInfo* out) {
  out->schema = in.schema();
  ALKAID_RETURN_NOT_OK(FromProto(in.flight_descriptor(), &out->descriptor));
  out->endpoints.resize(static_cast<size_t>(in.endpoint_size()));
  for (int i = 0; i < in.endpoint_size(); ++i) {
    ALKAID_RETURN_NOT_OK(FromProto(in.endpoint(i), &out->endpoints[static_cast<size_t>(i)]));
  }
  out->total_records = in.total_records();
  out->total_bytes = in.total_bytes();
  out->ordered = in.ordered();
  out->app_metadata = in.app_metadata();
  return Status::OK();
}
Status FromProto(const pb::PollInfo& in, PollInfo* out) {
  *out = PollInfo();
  if (in.has_info()) ALKAID_RETURN_NOT_OK(FromProto(in.info(), &out->info.emplace()));
  if (in.has_flight_descriptor()) {
    ALKAID_RETURN_NOT_OK(FromProto(in.flight_descriptor(), &out->descriptor.emplace()));
  }
  if (in.has_progress()) out->progress = in.progress();
  if (in.has_expiration_time()) {
    Timestamp t;
    ALKAID_RETURN_NOT_OK(FromProto(in.expiration_time(), &t, "PollInfo.expiration_time"));
    out->expiration_time = t;
  }
  return Status::OK();
}
Status FromProto(const pb::SchemaResult& in, SchemaResult* out) {
  out->schema = in.schema();
  return Status::OK();
}
Status FromProto(const pb::Criteria& in, Criteria* out) {
  out->expression = in.expression();
  return Status::OK();
}
Status FromProto(const pb::Action& in, Action* out) {
  out->type = in.type();
  out->body = in.body();
  return Status::OK();
}
Status FromProto(const pb::Result& in, ActionResult* out) {
  out->body = in.body();
  return Status::OK();
}
Status FromProto(const pb::ActionType& in, ActionType* out) {
  out->type = in.type();
  out->description = in.description();
  return Status::OK();
}
Status FromProto(const pb::CancelFlightInfoRequest& in, CancelFlightInfoRequest* out) {
  return FromProto(in.info(), &out->info);
}
Status FromProto(const pb::CancelFlightInfoResult& in, CancelFlightInfoResult* out) {
  return EnumInRange(in.status(), 3, "CancelFlightInfoResult.status", &out->status);
}
Status FromProto(const pb::RenewFlightEndpointRequest& in, RenewFlightEndpointRequest* out) {
  return FromProto(in.endpoint(), &out->endpoint);
}
Status FromProto(const pb::SetSessionOptionsRequest& in, SetSessionOptionsRequest* out) {
  out->options.clear();
  for (const auto& [k, v] : in.session_options()) out->options[k] = FromProto(v);
  return Status::OK();
}
Status FromProto(const pb::SetSessionOptionsResult& in, SetSessionOptionsResult* out) {
  out->errors.clear();
  for (const auto& [k, v] : in.errors()) {
    ALKAID_RETURN_NOT_OK(
        EnumInRange(v.value(), 3, "SetSessionOptionsResult.errors", &out->errors[k]));
  }
  return Status::OK();
}
Status FromProto(const pb::GetSessionOptionsResult& in, GetSessionOptionsResult* out) {
  out->options.clear();
  for (const auto& [k, v] : in.session_options()) out->options[k] = FromProto(v);
  return Status::OK();
}
Status FromProto(const pb::CloseSessionResult& in, CloseSessionStatus* out) {
  return EnumInRange(in.status(), 3, "CloseSessionResult.status", out);
}

}  // namespace alkaid::flight::proto

namespace alkaid::flight {

namespace pb = proto::pb;
using proto::ParseAs;
using proto::SerializeAs;

Result<std::string> Serialize(const FlightDescriptor& v) {
  return SerializeAs<pb::FlightDescriptor>(v);
}
Result<std::string> Serialize(const FlightInfo& v) { return SerializeAs<pb::FlightInfo>(v); }
Result<std::string> Serialize(const FlightEndpoint& v) {
  return SerializeAs<pb::FlightEndpoint>(v);
}
Result<std::string> Serialize(const PollInfo& v) { return SerializeAs<pb::PollInfo>(v); }
Result<std::string> Serialize(const CancelFlightInfoRequest& v) {
  return SerializeAs<pb::CancelFlightInfoRequest>(v);
}
Result<std::string> Serialize(const CancelFlightInfoResult& v) {
  return SerializeAs<pb::CancelFlightInfoResult>(v);
}
Result<std::string> Serialize(const RenewFlightEndpointRequest& v) {
  return SerializeAs<pb::RenewFlightEndpointRequest>(v);
}
Result<std::string> Serialize(const SetSessionOptionsRequest& v) {
  return SerializeAs<pb::SetSessionOptionsRequest>(v);
}
Result<std::string> Serialize(const SetSessionOptionsResult& v) {
  return SerializeAs<pb::SetSessionOptionsResult>(v);
}
Result<std::string> Serialize(const GetSessionOptionsResult& v) {
  return SerializeAs<pb::GetSessionOptionsResult>(v);
}

#define ALKAID_FLIGHT_DESERIALIZE(T)                                  \
  template <>                                                         \
  Result<T> Deserialize<T>(std::string_view bytes) {                  \
    return ParseAs<T, pb::T>(bytes, #T);                              \
  }
ALKAID_FLIGHT_DESERIALIZE(FlightDescriptor)
ALKAID_FLIGHT_DESERIALIZE(FlightInfo)
ALKAID_FLIGHT_DESERIALIZE(FlightEndpoint)
ALKAID_FLIGHT_DESERIALIZE(PollInfo)
ALKAID_FLIGHT_DESERIALIZE(CancelFlightInfoRequest)
ALKAID_FLIGHT_DESERIALIZE(CancelFlightInfoResult)
ALKAID_FLIGHT_DESERIALIZE(RenewFlightEndpointRequest)
ALKAID_FLIGHT_DESERIALIZE(SetSessionOptionsRequest)
ALKAID_FLIGHT_DESERIALIZE(SetSessionOptionsResult)
ALKAID_FLIGHT_DESERIALIZE(GetSessionOptionsResult)
#undef ALKAID_FLIGHT_DESERIALIZE

namespace {

// An encapsulated schema message decodes with the IPC stream reader (a stream that ends after
// its schema), so it gets every check an IPC stream gets.
Result<SchemaPtr> DecodeSchema(const std::string& bytes, const char* where) {
  if (bytes.empty()) return Status::Invalid("Flight: ", where, " carries no schema");
  ALKAID_ASSIGN_OR_RAISE(auto copy, Buffer::Copy(reinterpret_cast<const uint8_t*>(bytes.data()),
                                                 static_cast<int64_t>(bytes.size())));
  auto reader = ipc::StreamReader::Open(std::move(copy));
  if (!reader.ok()) {
    return Status::Invalid("Flight: ", where, " schema: ", reader.status().message());
  }
  return (*reader)->schema();
}

}  // namespace

Result<SchemaPtr> FlightInfo::GetSchema() const { return DecodeSchema(schema, "FlightInfo"); }

Status FlightInfo::SetSchema(const Schema& value) {
  ALKAID_ASSIGN_OR_RAISE(auto bytes, ipc::SerializeSchema(value));
  schema = std::string(bytes->view());
  return Status::OK();
}

Result<SchemaPtr> SchemaResult::GetSchema() const { return DecodeSchema(schema, "SchemaResult"); }

}  // namespace alkaid::flight
