// FlightServerBase: the gRPC server, per-call context (auth, middleware), and the conversion
// of every RPC between gRPC and the virtuals of server.h.
#include "alkaid/flight/server.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>

#include <climits>
#include <mutex>
#include <thread>

#include "auth.h"
#include "data_stream.h"
#include "grpc_util.h"
#include "protobuf.h"
#include "service.h"

namespace alkaid::flight {

namespace {

using grpc_util::FromGrpc;
using grpc_util::ServerHeaders;
using grpc_util::ToGrpc;

// Set while a thread runs a handler, so that Shutdown from a handler does not wait for itself.
thread_local bool t_in_handler = false;

// A write to the client failed: it cancelled or went away.
Status ClientGone(const char* rpc) {
  return FlightError(FlightStatusCode::kCancelled, std::string(rpc) + ": the client went away");
}

class Context final : public ServerCallContext {
 public:
  Context(grpc::ServerContext* grpc_context, const ServerHeaders* headers)
      : grpc_(grpc_context), headers_(headers), peer_(grpc_context->peer()) {}
  const std::string& peer_identity() const override { return identity_; }
  const std::string& peer() const override { return peer_; }
  bool is_cancelled() const override { return grpc_->IsCancelled(); }
  const CallHeaders& incoming_headers() const override { return *headers_; }
  ServerMiddleware* GetMiddleware(std::string_view name) const override {
    for (const auto& [n, m] : middleware_) {
      if (n == name) return m.get();
    }
    return nullptr;
  }

  grpc::ServerContext* grpc_;
  const ServerHeaders* headers_;
  std::string peer_;
  std::string identity_;
  std::vector<std::pair<std::string, std::unique_ptr<ServerMiddleware>>> middleware_;
};

class GrpcOutgoingHeaders final : public OutgoingHeaders {
 public:
  explicit GrpcOutgoingHeaders(grpc::ServerContext* ctx) : ctx_(ctx) {}
  void Add(std::string_view key, std::string_view value) override {
    ctx_->AddInitialMetadata(std::string(key), std::string(value));
  }

 private:
  grpc::ServerContext* ctx_;
};

class HandshakeChannel final : public ServerAuthHandler::Channel {
 public:
  HandshakeChannel(grpc::ServerReaderWriter<pb::HandshakeResponse, pb::HandshakeRequest>* stream,
                   grpc::ServerContext* ctx, bool bearer_header)
      : stream_(stream), ctx_(ctx), bearer_header_(bearer_header) {}
  Result<std::optional<std::string>> Read() override {
    pb::HandshakeRequest request;
    if (!stream_->Read(&request)) return std::optional<std::string>();
    return std::optional<std::string>(request.payload());
  }
  Status Write(std::string_view payload) override {
    if (bearer_header_) {
      // The first answer is the token: also sent as a header, which header-based peers read.
      ctx_->AddInitialMetadata("authorization", "Bearer " + std::string(payload));
      bearer_header_ = false;
    }
    pb::HandshakeResponse response;
    response.set_payload(std::string(payload));
    return stream_->Write(response) ? Status::OK() : ClientGone("Handshake");
  }

 private:
  grpc::ServerReaderWriter<pb::HandshakeResponse, pb::HandshakeRequest>* stream_;
  grpc::ServerContext* ctx_;
  bool bearer_header_;
};

// Why a stream's reads ended: a clean half-close, or the client cancelled / went away.
Status EndOfUpload(grpc::ServerContext* ctx) {
  if (ctx->IsCancelled()) {
    return FlightError(FlightStatusCode::kCancelled,
                       "the client cancelled or disconnected before finishing its upload");
  }
  return Status::OK();
}

class MessageReader final : public FlightMessageReader {
 public:
  MessageReader(data::ReceiveFn receive, grpc::ServerContext* ctx,
                const ipc::IpcReadOptions& options)
      : decoder_(std::move(receive), [ctx] { return EndOfUpload(ctx); }, options) {}
  Status Start() {
    ALKAID_RETURN_NOT_OK(decoder_.ReadFirst());
    if (decoder_.descriptor()) {
      auto parsed = proto::ParseAs<FlightDescriptor, pb::FlightDescriptor>(
          *decoder_.descriptor(), "FlightDescriptor");
      ALKAID_RETURN_NOT_OK(parsed.status());
      descriptor_ = std::move(*parsed);
    }
    return Status::OK();
  }
  const FlightDescriptor& descriptor() const override { return descriptor_; }
  Result<SchemaPtr> GetSchema() override { return decoder_.GetSchema(); }
  Result<std::optional<FlightStreamChunk>> Next() override { return decoder_.Next(); }

 private:
  data::Decoder decoder_;
  FlightDescriptor descriptor_;
};

class PutResultWriter final : public FlightMetadataWriter {
 public:
  explicit PutResultWriter(grpc::ServerReaderWriter<pb::PutResult, wire::FlightData>* stream)
      : stream_(stream) {}
  Status WriteMetadata(std::string_view app_metadata) override {
    pb::PutResult result;
    result.set_app_metadata(std::string(app_metadata));
    return stream_->Write(result) ? Status::OK() : ClientGone("DoPut");
  }

 private:
  grpc::ServerReaderWriter<pb::PutResult, wire::FlightData>* stream_;
};

}  // namespace

class FlightServerBase::Impl final : public FlightServiceHandlers {
 public:
  explicit Impl(FlightServerBase* base) : base_(base), service_(this) {}

  ~Impl() override {
    (void)Shutdown(std::chrono::system_clock::now());
    if (shutdown_thread_.joinable()) shutdown_thread_.join();
    if (server_) server_->Wait();
  }

  Status Init(const ServerOptions& options) {
    if (server_) return Status::Invalid("Flight server: Init called twice");
    options_ = options;
    ALKAID_ASSIGN_OR_RAISE(auto location, Location::Parse(options.location));
    std::string scheme = location.scheme();
    std::string rest = location.uri.substr(location.uri.find("://") + 3);
    std::shared_ptr<grpc::ServerCredentials> creds;
    if (scheme == "grpc" || scheme == "grpc+tcp") {
      creds = grpc::InsecureServerCredentials();
    } else if (scheme == "grpc+tls") {
      if (options.tls_certificates.empty()) {
        return Status::Invalid("Flight server: ", options.location,
                               " needs ServerOptions::tls_certificates");
      }
      grpc::SslServerCredentialsOptions ssl(
          options.verify_client_roots.empty()
              ? GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE
              : GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
      ssl.pem_root_certs = options.verify_client_roots;
      for (const auto& pair : options.tls_certificates) {
        ssl.pem_key_cert_pairs.push_back({pair.pem_key, pair.pem_cert});
      }
      creds = grpc::SslServerCredentials(ssl);
    } else if (scheme == "grpc+unix") {
      creds = grpc::InsecureServerCredentials();
    } else {
      return Status::Invalid("Flight server: cannot listen on '", options.location,
                             "' (expected grpc://, grpc+tcp://, grpc+tls:// or grpc+unix://)");
    }
    std::string address = scheme == "grpc+unix" ? "unix:" + rest : rest.substr(0, rest.find('/'));
    host_ = address.substr(0, address.rfind(':'));
    scheme_ = scheme;
    grpc::ServerBuilder builder;
    builder.AddListeningPort(address, creds, &port_);
    builder.RegisterService(&service_);
    // gRPC's own limit is twice ours: data messages over ours are refused by the handler's
    // reader (see wire::SetReceiveLimitOfThisThread), and gRPC still bounds the size of the
    // other messages. gRPC does not inflate compressed messages: alkaid does, under the limit
    // (wire::ReceiveFlightData).
    int64_t limit = options.max_receive_message_bytes;
    for (const auto& [name, value] : grpc_util::ChannelIntArgs(
             limit < 0 || limit > INT_MAX / 2 ? -1 : 2 * limit, options.max_send_message_bytes,
             options.flow_control_window_bytes, options.channel_int_args)) {
      builder.AddChannelArgument(name, value);
    }
    if (options.num_threads > 0) {
      grpc::ResourceQuota quota("alkaid-flight-server");
      quota.SetMaxThreads(options.num_threads);
      builder.SetResourceQuota(quota);
    }
    server_ = builder.BuildAndStart();
    if (!server_) {
      return FlightError(FlightStatusCode::kUnavailable,
                         "the server could not listen on " + options.location);
    }
    if (scheme == "grpc+unix") port_ = 0;
    return Status::OK();
  }

  Status Shutdown(std::optional<std::chrono::system_clock::time_point> deadline) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!server_ || shutdown_started_) return Status::OK();
    shutdown_started_ = true;
    grpc::Server* server = server_.get();
    shutdown_thread_ = std::thread([server, deadline] {
      if (deadline) {
        server->Shutdown(*deadline);
      } else {
        server->Shutdown();
      }
    });
    // From a handler the shutdown waits for that very handler: let it run on its own.
    if (!t_in_handler) shutdown_thread_.join();
    return Status::OK();
  }

  // Runs one call: authentication, middleware, the body, the status.
  template <typename Body>
  grpc::Status Run(grpc::ServerContext* ctx, FlightMethod method, Body&& body) {
    t_in_handler = true;
    wire::SetReceiveLimitOfThisThread(options_.max_receive_message_bytes);
    ServerHeaders headers(ctx->client_metadata());
    Context context(ctx, &headers);
    Status st = StartCall(method, headers, &context);
    if (st.ok()) st = body(context);
    for (auto it = context.middleware_.rbegin(); it != context.middleware_.rend(); ++it) {
      it->second->CallCompleted(st);
    }
    t_in_handler = false;
    return ToGrpc(st, options_.max_error_text_bytes);
  }

  // GetFlightInfo, PollFlightInfo and GetSchema: a descriptor in, one answer out.
  template <typename T, typename Response>
  grpc::Status DescriptorCall(grpc::ServerContext* ctx, FlightMethod method,
                              const pb::FlightDescriptor& request, Response* response,
                              Result<T> (FlightServerBase::*answer)(const ServerCallContext&,
                                                                    const FlightDescriptor&)) {
    return Run(ctx, method, [&](Context& c) -> Status {
      FlightDescriptor descriptor;
      ALKAID_RETURN_NOT_OK(proto::FromProto(request, &descriptor));
      ALKAID_ASSIGN_OR_RAISE(T result, (base_->*answer)(c, descriptor));
      proto::ToProto(result, response);
      return Status::OK();
    });
  }

  // A well-known action: its body parsed as the message P of the request, `handler`'s answer
  // sent by `emit` as the message A.
  template <typename P, typename A, typename Request, typename Answer, typename Emit>
  Status AnswerAction(Context& c, const std::string& body,
                      Result<Answer> (FlightServerBase::*handler)(const ServerCallContext&,
                                                                  const Request&),
                      Emit&& emit) {
    ALKAID_ASSIGN_OR_RAISE(Request request,
                           (proto::ParseAs<Request, P>(body, P::descriptor()->name().c_str())));
    ALKAID_ASSIGN_OR_RAISE(Answer answer, (base_->*handler)(c, request));
    return emit(proto::SerializeAs<A>(answer));
  }

  Status StartCall(FlightMethod method, const ServerHeaders& headers, Context* context) {
    if (options_.auth_handler && method != FlightMethod::kHandshake) {
      auto value = headers.GetFirst("authorization");
      constexpr std::string_view kBearer = "Bearer ";
      std::optional<std::string_view> token;
      if (value && value->substr(0, kBearer.size()) == kBearer) {
        token = value->substr(kBearer.size());
      } else {
        // Arrow's older scheme (Arrow C++ and Java clients with a ClientAuthHandler) carries
        // the Handshake's token in this binary header instead.
        token = headers.GetFirst("auth-token-bin");
      }
      if (!token) {
        return FlightError(FlightStatusCode::kUnauthenticated, "no bearer token in the call");
      }
      auto identity = options_.auth_handler->IsValid(headers, *token);
      if (!identity.ok()) {
        return FlightError(FlightStatusCode::kUnauthenticated, identity.status().message());
      }
      context->identity_ = *identity;
    }
    CallInfo info{method, context->peer()};
    for (const auto& [name, factory] : options_.middleware) {
      ALKAID_ASSIGN_OR_RAISE(auto middleware, factory->StartCall(info, headers));
      if (middleware) context->middleware_.emplace_back(name, std::move(middleware));
    }
    GrpcOutgoingHeaders outgoing(context->grpc_);
    for (const auto& m : context->middleware_) m.second->SendingHeaders(outgoing);
    return Status::OK();
  }

  grpc::Status Handshake(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<pb::HandshakeResponse, pb::HandshakeRequest>* stream) override {
    return Run(ctx, FlightMethod::kHandshake, [&](Context& c) -> Status {
      HandshakeChannel channel(
          stream, ctx, options_.auth_handler && auth::SendsBearerHeader(*options_.auth_handler));
      if (!options_.auth_handler) {
        // No authentication: read what the client sends and answer nothing.
        while (true) {
          ALKAID_ASSIGN_OR_RAISE(auto payload, channel.Read());
          if (!payload) return Status::OK();
        }
      }
      Status st = options_.auth_handler->Handshake(c.incoming_headers(), channel);
      if (!st.ok() && !FlightStatusCodeOf(st)) {
        return FlightError(FlightStatusCode::kUnauthenticated, st.message());
      }
      return st;
    });
  }

  grpc::Status ListFlights(grpc::ServerContext* ctx, const pb::Criteria* request,
                           grpc::ServerWriter<pb::FlightInfo>* writer) override {
    return Run(ctx, FlightMethod::kListFlights, [&](Context& c) -> Status {
      Criteria criteria;
      ALKAID_RETURN_NOT_OK(proto::FromProto(*request, &criteria));
      return base_->ListFlights(c, criteria, [&](const FlightInfo& info) -> Status {
        pb::FlightInfo out;
        proto::ToProto(info, &out);
        return writer->Write(out) ? Status::OK() : ClientGone("ListFlights");
      });
    });
  }

  grpc::Status GetFlightInfo(grpc::ServerContext* ctx, const pb::FlightDescriptor* request,
                             pb::FlightInfo* response) override {
    return DescriptorCall(ctx, FlightMethod::kGetFlightInfo, *request, response,
                          &FlightServerBase::GetFlightInfo);
  }

  grpc::Status PollFlightInfo(grpc::ServerContext* ctx, const pb::FlightDescriptor* request,
                              pb::PollInfo* response) override {
    return DescriptorCall(ctx, FlightMethod::kPollFlightInfo, *request, response,
                          &FlightServerBase::PollFlightInfo);
  }

  grpc::Status GetSchema(grpc::ServerContext* ctx, const pb::FlightDescriptor* request,
                         pb::SchemaResult* response) override {
    return DescriptorCall(ctx, FlightMethod::kGetSchema, *request, response,
                          &FlightServerBase::GetSchema);
  }

  grpc::Status DoGet(grpc::ServerContext* ctx, const pb::Ticket* request,
                     grpc::ServerWriter<wire::FlightData>* writer) override {
    return Run(ctx, FlightMethod::kDoGet, [&](Context& c) -> Status {
      Ticket ticket;
      ALKAID_RETURN_NOT_OK(proto::FromProto(*request, &ticket));
      ALKAID_ASSIGN_OR_RAISE(auto stream, base_->DoGet(c, ticket));
      if (!stream) return Status::Invalid("DoGet: the server's handler returned no stream");
      data::Encoder encoder([writer](const wire::FlightData& d) { return writer->Write(d); },
                            options_.write_options, std::nullopt,
                            [] { return ClientGone("DoGet"); });
      ALKAID_RETURN_NOT_OK(encoder.Begin(stream->schema()));
      while (true) {
        if (ctx->IsCancelled()) return ClientGone("DoGet");
        ALKAID_ASSIGN_OR_RAISE(auto chunk, stream->Next());
        if (!chunk) return Status::OK();
        if (chunk->batch) {
          if (chunk->app_metadata) {
            ALKAID_RETURN_NOT_OK(encoder.WriteWithMetadata(*chunk->batch,
                                                           chunk->app_metadata->view()));
          } else {
            ALKAID_RETURN_NOT_OK(encoder.WriteRecordBatch(*chunk->batch));
          }
        } else if (chunk->app_metadata) {
          ALKAID_RETURN_NOT_OK(encoder.WriteMetadata(chunk->app_metadata->view()));
        }
      }
    });
  }

  grpc::Status DoPut(grpc::ServerContext* ctx,
                     grpc::ServerReaderWriter<pb::PutResult, wire::FlightData>* stream) override {
    return Run(ctx, FlightMethod::kDoPut, [&](Context& c) -> Status {
      MessageReader reader([stream](wire::FlightData* d) { return stream->Read(d); }, ctx,
                           options_.read_options);
      ALKAID_RETURN_NOT_OK(reader.Start());
      PutResultWriter writer(stream);
      return base_->DoPut(c, reader, writer);
    });
  }

  grpc::Status DoExchange(
      grpc::ServerContext* ctx,
      grpc::ServerReaderWriter<wire::FlightData, wire::FlightData>* stream) override {
    return Run(ctx, FlightMethod::kDoExchange, [&](Context& c) -> Status {
      MessageReader reader([stream](wire::FlightData* d) { return stream->Read(d); }, ctx,
                           options_.read_options);
      ALKAID_RETURN_NOT_OK(reader.Start());
      data::Encoder writer([stream](const wire::FlightData& d) { return stream->Write(d); },
                           options_.write_options, std::nullopt,
                           [] { return ClientGone("DoExchange"); });
      return base_->DoExchange(c, reader, writer);
    });
  }

  grpc::Status DoAction(grpc::ServerContext* ctx, const pb::Action* request,
                        grpc::ServerWriter<pb::Result>* writer) override {
    return Run(ctx, FlightMethod::kDoAction, [&](Context& c) -> Status {
      Action action;
      ALKAID_RETURN_NOT_OK(proto::FromProto(*request, &action));
      auto emit = [&](const ActionResult& r) -> Status {
        pb::Result out;
        proto::ToProto(r, &out);
        return writer->Write(out) ? Status::OK() : ClientGone("DoAction");
      };
      auto emit_bytes = [&](std::string body) { return emit(ActionResult{std::move(body)}); };
      if (action.type == ActionType::kCancelFlightInfo.type) {
        return AnswerAction<pb::CancelFlightInfoRequest, pb::CancelFlightInfoResult>(
            c, action.body, &FlightServerBase::CancelFlightInfo, emit_bytes);
      }
      if (action.type == ActionType::kRenewFlightEndpoint.type) {
        return AnswerAction<pb::RenewFlightEndpointRequest, pb::FlightEndpoint>(
            c, action.body, &FlightServerBase::RenewFlightEndpoint, emit_bytes);
      }
      if (action.type == ActionType::kSetSessionOptions.type) {
        return AnswerAction<pb::SetSessionOptionsRequest, pb::SetSessionOptionsResult>(
            c, action.body, &FlightServerBase::SetSessionOptions, emit_bytes);
      }
      if (action.type == ActionType::kGetSessionOptions.type) {
        ALKAID_ASSIGN_OR_RAISE(auto result, base_->GetSessionOptions(c));
        return emit_bytes(proto::SerializeAs<pb::GetSessionOptionsResult>(result));
      }
      if (action.type == ActionType::kCloseSession.type) {
        ALKAID_ASSIGN_OR_RAISE(auto result, base_->CloseSession(c));
        return emit_bytes(proto::SerializeAs<pb::CloseSessionResult>(result));
      }
      return base_->DoAction(c, action, emit);
    });
  }

  grpc::Status ListActions(grpc::ServerContext* ctx, const pb::Empty*,
                           grpc::ServerWriter<pb::ActionType>* writer) override {
    return Run(ctx, FlightMethod::kListActions, [&](Context& c) -> Status {
      ALKAID_ASSIGN_OR_RAISE(auto types, base_->ListActions(c));
      for (const auto& t : types) {
        pb::ActionType out;
        proto::ToProto(t, &out);
        if (!writer->Write(out)) return ClientGone("ListActions");
      }
      return Status::OK();
    });
  }

  FlightServerBase* base_;
  FlightGrpcService service_;
  ServerOptions options_;
  std::unique_ptr<grpc::Server> server_;
  int port_ = 0;
  std::string host_;
  std::string scheme_;
  std::mutex mu_;
  bool shutdown_started_ = false;
  std::thread shutdown_thread_;
};

FlightServerBase::FlightServerBase() : impl_(std::make_unique<Impl>(this)) {}
FlightServerBase::~FlightServerBase() = default;

Status FlightServerBase::Init(const ServerOptions& options) { return impl_->Init(options); }
int FlightServerBase::port() const { return impl_->port_; }

Location FlightServerBase::location() const {
  if (impl_->scheme_ == "grpc+unix") return Location{impl_->options_.location};
  return Location{impl_->scheme_ + "://" + impl_->host_ + ":" + std::to_string(impl_->port_)};
}

Status FlightServerBase::Serve() {
  if (!impl_->server_) return Status::Invalid("Flight server: Serve before Init");
  impl_->server_->Wait();
  return Status::OK();
}

Status FlightServerBase::Shutdown(std::optional<std::chrono::system_clock::time_point> deadline) {
  return impl_->Shutdown(deadline);
}

namespace {
Status NotServed(FlightMethod method) {
  return Status::NotImplemented("this Flight server does not serve ", FlightMethodName(method));
}
Status NotServed(const ActionType& action) {
  return Status::NotImplemented("this Flight server does not serve the ", action.type,
                                " action");
}
}  // namespace

Status FlightServerBase::ListFlights(const ServerCallContext&, const Criteria&,
                                     const FlightInfoSink&) {
  return NotServed(FlightMethod::kListFlights);
}
Result<FlightInfo> FlightServerBase::GetFlightInfo(const ServerCallContext&,
                                                   const FlightDescriptor&) {
  return NotServed(FlightMethod::kGetFlightInfo);
}
Result<PollInfo> FlightServerBase::PollFlightInfo(const ServerCallContext&,
                                                  const FlightDescriptor&) {
  return NotServed(FlightMethod::kPollFlightInfo);
}
Result<SchemaResult> FlightServerBase::GetSchema(const ServerCallContext&,
                                                 const FlightDescriptor&) {
  return NotServed(FlightMethod::kGetSchema);
}
Result<std::unique_ptr<FlightDataStream>> FlightServerBase::DoGet(const ServerCallContext&,
                                                                  const Ticket&) {
  return NotServed(FlightMethod::kDoGet);
}
Status FlightServerBase::DoPut(const ServerCallContext&, FlightMessageReader&,
                               FlightMetadataWriter&) {
  return NotServed(FlightMethod::kDoPut);
}
Status FlightServerBase::DoExchange(const ServerCallContext&, FlightMessageReader&,
                                    FlightMessageWriter&) {
  return NotServed(FlightMethod::kDoExchange);
}
Status FlightServerBase::DoAction(const ServerCallContext&, const Action& action,
                                  const ActionResultSink&) {
  return Status::NotImplemented("this Flight server does not serve the action '",
                                grpc_util::CapText(action.type, 128), "'");
}
Result<std::vector<ActionType>> FlightServerBase::ListActions(const ServerCallContext&) {
  return std::vector<ActionType>{};
}
Result<CancelFlightInfoResult> FlightServerBase::CancelFlightInfo(
    const ServerCallContext&, const CancelFlightInfoRequest&) {
  return NotServed(ActionType::kCancelFlightInfo);
}
Result<FlightEndpoint> FlightServerBase::RenewFlightEndpoint(const ServerCallContext&,
                                                             const RenewFlightEndpointRequest&) {
  return NotServed(ActionType::kRenewFlightEndpoint);
}
Result<SetSessionOptionsResult> FlightServerBase::SetSessionOptions(
    const ServerCallContext&, const SetSessionOptionsRequest&) {
  return NotServed(ActionType::kSetSessionOptions);
}
Result<GetSessionOptionsResult> FlightServerBase::GetSessionOptions(const ServerCallContext&) {
  return NotServed(ActionType::kGetSessionOptions);
}
Result<CloseSessionStatus> FlightServerBase::CloseSession(const ServerCallContext&) {
  return NotServed(ActionType::kCloseSession);
}

}  // namespace alkaid::flight
