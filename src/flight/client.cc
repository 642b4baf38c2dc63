// FlightClient: a gRPC channel, the RPCs, and the data streams of DoGet, DoPut and DoExchange.
#include "alkaid/flight/client.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/impl/codegen/proto_utils.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>

#include <climits>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <thread>

#include "alkaid/flight_proto/Flight.grpc.pb.h"
#include "auth.h"
#include "client_middleware.h"
#include "data_stream.h"
#include "grpc_util.h"
#include "protobuf.h"
#include "../util/base64.h"

namespace alkaid::flight {

namespace {

namespace pb = ::arrow::flight::protocol;
using grpc_util::FromGrpc;

// Cancels the gRPC calls whose StopSource was triggered. One thread per client, started by the
// first call that has a StopSource, polling every few milliseconds: a StopSource is a plain
// flag that cannot wake anyone.
class StopWatcher {
 public:
  ~StopWatcher() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
  }
  using Handle = std::list<std::pair<StopSource, grpc::ClientContext*>>::iterator;
  Handle Add(const StopSource& source, grpc::ClientContext* ctx) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
    return calls_.emplace(calls_.end(), source, ctx);
  }
  void Remove(Handle h) {
    std::lock_guard<std::mutex> lock(mu_);
    calls_.erase(h);
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!done_) {
      for (auto& [source, ctx] : calls_) {
        if (source.stop_requested()) ctx->TryCancel();
      }
      cv_.wait_for(lock, std::chrono::milliseconds(5));
    }
  }
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::list<std::pair<StopSource, grpc::ClientContext*>> calls_;
  std::thread thread_;
};

}  // namespace

// One call's gRPC context, registered with the stop watcher while it lives.
class CallContext {
 public:
  CallContext(StopWatcher* watcher, const CallOptions& options) : watcher_(watcher) {
    if (options.timeout) {
      ctx.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::duration_cast<std::chrono::system_clock::duration>(
                           *options.timeout));
    }
    if (options.stop_source) {
      stop_ = options.stop_source;
      handle_ = watcher_->Add(*options.stop_source, &ctx);
      registered_ = true;
    }
  }
  ~CallContext() {
    if (registered_) watcher_->Remove(handle_);
  }
  Status Stopped(const char* rpc) const {
    if (stop_ && stop_->stop_requested()) {
      return FlightError(FlightStatusCode::kCancelled, std::string(rpc) + ": stopped by the caller");
    }
    return Status::OK();
  }
  grpc::ClientContext ctx;

 private:
  StopWatcher* watcher_;
  std::optional<StopSource> stop_;
  StopWatcher::Handle handle_;
  bool registered_ = false;
};

using Stub = pb::FlightService::Stub;

class FlightClient::Impl {
 public:
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<pb::FlightService::Stub> stub;
  ClientOptions options;
  StopWatcher watcher;
  std::mutex mu;
  std::string bearer;  // "Bearer <token>" after AuthenticateBasic
  // The token again for peers of Arrow's older handshake scheme (Arrow C++ and Java servers with
  // a ServerAuthHandler), which read it from "auth-token-bin"; set when the token came as the
  // Handshake's payload rather than a header.
  std::string token_bin;
  bool closed = false;
  grpc::internal::RpcMethod do_get_method;
  grpc::internal::RpcMethod do_put_method;
  grpc::internal::RpcMethod do_exchange_method;

  explicit Impl(std::shared_ptr<grpc::Channel> ch)
      : channel(ch),
        stub(pb::FlightService::NewStub(ch)),
        do_get_method(grpc_util::MethodPath(FlightMethod::kDoGet),
                      grpc::internal::RpcMethod::SERVER_STREAMING, ch),
        do_put_method(grpc_util::MethodPath(FlightMethod::kDoPut),
                      grpc::internal::RpcMethod::BIDI_STREAMING, ch),
        do_exchange_method(grpc_util::MethodPath(FlightMethod::kDoExchange),
                           grpc::internal::RpcMethod::BIDI_STREAMING, ch) {}

  Result<std::unique_ptr<CallContext>> Start(const CallOptions& call) {
    std::lock_guard<std::mutex> lock(mu);
    if (closed) return Status::Invalid("Flight client: the client was closed");
    auto c = std::make_unique<CallContext>(&watcher, call);
    for (const auto& [k, v] : call.headers) c->ctx.AddMetadata(k, v);
    for (const auto& [k, v] : options.headers) c->ctx.AddMetadata(k, v);
    if (!bearer.empty()) c->ctx.AddMetadata("authorization", bearer);
    if (!token_bin.empty()) c->ctx.AddMetadata("auth-token-bin", token_bin);
    return c;
  }

  Status Check(const grpc::Status& status, const CallContext& c, const char* rpc) {
    ALKAID_RETURN_NOT_OK(c.Stopped(rpc));
    return FromGrpc(status, rpc, options.max_error_text_bytes);
  }

  // Unary and Stream take the call's input as alkaid's type (converted to the request
  // message) or as the message itself, and convert each response to T.
  template <typename T, typename In, typename Req, typename Resp>
  Result<T> Unary(const char* rpc, const In& in, const CallOptions& options,
                  grpc::Status (Stub::*call)(grpc::ClientContext*, const Req&, Resp*)) {
    ALKAID_ASSIGN_OR_RAISE(auto c, Start(options));
    Resp response;
    ALKAID_RETURN_NOT_OK(
        Check((stub.get()->*call)(&c->ctx, proto::AsMessage<Req>(in), &response), *c, rpc));
    T out;
    ALKAID_RETURN_NOT_OK(proto::FromProto(response, &out));
    return out;
  }

  template <typename T, typename In, typename Req, typename Resp>
  Result<std::vector<T>> Stream(const char* rpc, const In& in, const CallOptions& options,
                                std::unique_ptr<grpc::ClientReader<Resp>> (Stub::*call)(
                                    grpc::ClientContext*, const Req&)) {
    ALKAID_ASSIGN_OR_RAISE(auto c, Start(options));
    auto reader = (stub.get()->*call)(&c->ctx, proto::AsMessage<Req>(in));
    std::vector<T> out;
    Resp response;
    Status conversion;
    while (reader->Read(&response)) {
      T value;
      conversion = proto::FromProto(response, &value);
      if (!conversion.ok()) {
        c->ctx.TryCancel();
        break;
      }
      out.push_back(std::move(value));
    }
    grpc::Status st = reader->Finish();
    ALKAID_RETURN_NOT_OK(conversion);
    ALKAID_RETURN_NOT_OK(Check(st, *c, rpc));
    return out;
  }

  template <typename P, typename T>
  Result<T> WellKnown(const ActionType& type, std::string body, const CallOptions& options) {
    Action action{type.type, std::move(body)};
    ALKAID_ASSIGN_OR_RAISE(auto results,
                           Stream<ActionResult>("DoAction", action, options, &Stub::DoAction));
    if (results.size() != 1) {
      return Status::Invalid("Flight: the ", type.type, " action answered ", results.size(),
                             " results, expected 1");
    }
    return proto::ParseAs<T, P>(results[0].body, type.type.c_str());
  }
};

namespace {

Result<TablePtr> ReadAll(FlightStreamReader& reader) {
  ALKAID_ASSIGN_OR_RAISE(auto schema, reader.GetSchema());
  std::vector<RecordBatchPtr> batches;
  while (true) {
    ALKAID_ASSIGN_OR_RAISE(auto chunk, reader.Next());
    if (!chunk) break;
    if (chunk->batch) batches.push_back(std::move(chunk->batch));
  }
  return Table::FromRecordBatches(schema, batches);
}

// The state a DoPut or DoExchange shares between its writer and its reader.
template <typename In>
struct StreamCall {
  std::unique_ptr<CallContext> call;
  std::unique_ptr<grpc::ClientReaderWriter<wire::FlightData, In>> stream;
  std::mutex mu;
  bool writes_done = false;
  bool finished = false;
  Status final_status;
  int64_t max_error_text_bytes = kDefaultMaxErrorTextBytes;
  const char* rpc = "";

  // Opens the call `rpc` (`method` on `channel`) in the context `c`.
  static std::shared_ptr<StreamCall> Open(const char* rpc, std::unique_ptr<CallContext> c,
                                          grpc::Channel* channel,
                                          const grpc::internal::RpcMethod& method,
                                          int64_t max_error_text_bytes) {
    auto out = std::make_shared<StreamCall>();
    out->rpc = rpc;
    out->max_error_text_bytes = max_error_text_bytes;
    out->call = std::move(c);
    out->stream.reset(grpc::internal::ClientReaderWriterFactory<wire::FlightData, In>::Create(
        channel, method, &out->call->ctx));
    return out;
  }

  Status WritesDone() {
    std::lock_guard<std::mutex> lock(mu);
    if (!writes_done && !finished) stream->WritesDone();
    writes_done = true;
    return Status::OK();
  }
  Status Finish() {
    std::lock_guard<std::mutex> lock(mu);
    if (!finished) {
      finished = true;
      grpc::Status st = stream->Finish();
      final_status = call->Stopped(rpc);
      if (final_status.ok()) final_status = FromGrpc(st, rpc, max_error_text_bytes);
    }
    return final_status;
  }
};

class DataReader final : public FlightStreamReader {
 public:
  DataReader(std::function<bool(wire::FlightData*)> read, std::function<Status()> finish,
             grpc::ClientContext* ctx, const ipc::IpcReadOptions& options)
      : ctx_(ctx), decoder_(std::move(read), std::move(finish), options) {}
  Result<SchemaPtr> GetSchema() override { return decoder_.GetSchema(); }
  Result<std::optional<FlightStreamChunk>> Next() override { return decoder_.Next(); }
  void Cancel() override { ctx_->TryCancel(); }

 private:
  grpc::ClientContext* ctx_;
  data::Decoder decoder_;
};

// DoGet's reader: owns its call.
class DoGetReader final : public FlightStreamReader {
 public:
  DoGetReader(std::unique_ptr<CallContext> call, const ipc::IpcReadOptions& options,
              int64_t max_error_text_bytes)
      : call_(std::move(call)), max_error_text_bytes_(max_error_text_bytes), options_(options) {}
  void Open(grpc::internal::RpcMethod& method, grpc::Channel* channel, const pb::Ticket& ticket,
            int64_t receive_limit) {
    stream_.reset(grpc::internal::ClientReaderFactory<wire::FlightData>::Create(
        channel, method, &call_->ctx, ticket));
    reader_ = std::make_unique<DataReader>(
        [this, receive_limit](wire::FlightData* d) {
          wire::ScopedReceiveLimit limit(receive_limit);
          return stream_->Read(d);
        },
        [this]() -> Status {
          grpc::Status st = stream_->Finish();
          ALKAID_RETURN_NOT_OK(call_->Stopped("DoGet"));
          return FromGrpc(st, "DoGet", max_error_text_bytes_);
        },
        &call_->ctx, options_);
  }
  ~DoGetReader() override {
    // An unfinished stream is cancelled, so gRPC lets go of it at once.
    if (reader_) call_->ctx.TryCancel();
  }
  Result<SchemaPtr> GetSchema() override { return reader_->GetSchema(); }
  Result<std::optional<FlightStreamChunk>> Next() override { return reader_->Next(); }
  void Cancel() override { call_->ctx.TryCancel(); }

 private:
  std::unique_ptr<CallContext> call_;
  int64_t max_error_text_bytes_;
  ipc::IpcReadOptions options_;
  std::unique_ptr<grpc::ClientReader<wire::FlightData>> stream_;
  std::unique_ptr<DataReader> reader_;
};

template <typename In>
class UploadWriter final : public FlightStreamWriter {
 public:
  UploadWriter(std::shared_ptr<StreamCall<In>> call, const ipc::IpcWriteOptions& options,
               std::string descriptor)
      : call_(call),
        encoder_([call](const wire::FlightData& d) { return call->stream->Write(d); }, options,
                 std::move(descriptor), [call] {
                   // The server ended the call; its status says why.
                   Status st = call->Finish();
                   if (!st.ok()) return st;
                   return FlightError(FlightStatusCode::kCancelled,
                                      std::string(call->rpc) + ": the server ended the call");
                 }) {}
  ~UploadWriter() override {
    // Without DoneWriting the upload is abandoned: cancel so the server keeps nothing.
    if (!done_) call_->call->ctx.TryCancel();
  }
  Status Begin(const SchemaPtr& schema) override { return encoder_.Begin(schema); }
  Status WriteRecordBatch(const RecordBatch& batch) override {
    return encoder_.WriteRecordBatch(batch);
  }
  Status WriteWithMetadata(const RecordBatch& batch, std::string_view app_metadata) override {
    return encoder_.WriteWithMetadata(batch, app_metadata);
  }
  Status WriteMetadata(std::string_view app_metadata) override {
    return encoder_.WriteMetadata(app_metadata);
  }
  Status DoneWriting() override {
    if (done_) return Status::OK();
    ALKAID_RETURN_NOT_OK(encoder_.SendDescriptorIfPending());
    done_ = true;
    return call_->WritesDone();
  }
  Status Close() override {
    ALKAID_RETURN_NOT_OK(DoneWriting());
    if constexpr (std::is_same_v<In, pb::PutResult>) {
      // Keep the PutResults nobody read yet for the metadata reader; the final status needs
      // the stream drained.
      pb::PutResult r;
      while (call_->stream->Read(&r)) unread_->push_back(r.app_metadata());
    }
    return call_->Finish();
  }
  void Cancel() override { call_->call->ctx.TryCancel(); }
  Status SendDescriptor() { return encoder_.SendDescriptorIfPending(); }

  std::shared_ptr<std::deque<std::string>> unread_ = std::make_shared<std::deque<std::string>>();

 private:
  std::shared_ptr<StreamCall<In>> call_;
  data::Encoder encoder_;
  bool done_ = false;
};

class PutResultReader final : public FlightMetadataReader {
 public:
  PutResultReader(std::shared_ptr<StreamCall<pb::PutResult>> call,
                  std::shared_ptr<std::deque<std::string>> unread)
      : call_(std::move(call)), unread_(std::move(unread)) {}
  Result<std::optional<std::string>> Read() override {
    if (!unread_->empty()) {
      std::string out = std::move(unread_->front());
      unread_->pop_front();
      return std::optional<std::string>(std::move(out));
    }
    pb::PutResult r;
    {
      std::lock_guard<std::mutex> lock(call_->mu);
      if (!call_->finished && call_->stream->Read(&r)) {
        return std::optional<std::string>(r.app_metadata());
      }
    }
    ALKAID_RETURN_NOT_OK(call_->Finish());
    return std::optional<std::string>();
  }

 private:
  std::shared_ptr<StreamCall<pb::PutResult>> call_;
  std::shared_ptr<std::deque<std::string>> unread_;
};

}  // namespace

Result<TablePtr> FlightStreamReader::ToTable() { return ReadAll(*this); }

FlightClient::FlightClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FlightClient::~FlightClient() { (void)Close(); }

Result<std::unique_ptr<FlightClient>> FlightClient::Connect(const Location& location,
                                                           const ClientOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto parsed, Location::Parse(location.uri));
  std::string scheme = parsed.scheme();
  std::string rest = parsed.uri.substr(parsed.uri.find("://") + 3);
  std::string target = rest.substr(0, rest.find('/'));
  grpc::ChannelArguments args;
  for (const auto& [name, value] : grpc_util::ChannelIntArgs(
           options.max_receive_message_bytes, options.max_send_message_bytes,
           options.flow_control_window_bytes, options.channel_int_args)) {
    args.SetInt(name, value);
  }
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (scheme == "grpc" || scheme == "grpc+tcp") {
    creds = grpc::InsecureChannelCredentials();
  } else if (scheme == "grpc+unix") {
    creds = grpc::InsecureChannelCredentials();
    target = "unix:" + rest;
  } else if (scheme == "grpc+tls") {
    if (options.disable_server_verification) {
      // gRPC's TLS credentials accept any server certificate with a no-op verifier; the
      // client certificate, if any, is still presented (a mutual-TLS server checks it).
      grpc::experimental::TlsChannelCredentialsOptions tls;
      tls.set_verify_server_certs(false);
      tls.set_check_call_host(false);
      tls.set_certificate_verifier(std::make_shared<grpc::experimental::NoOpCertificateVerifier>());
      std::vector<grpc::experimental::IdentityKeyCertPair> identity;
      if (options.client_cert) {
        identity.push_back({options.client_cert->pem_key, options.client_cert->pem_cert});
      }
      if (!identity.empty() || !options.tls_root_certs.empty()) {
        tls.set_certificate_provider(
            std::make_shared<grpc::experimental::StaticDataCertificateProvider>(
                options.tls_root_certs, identity));
        if (!options.tls_root_certs.empty()) tls.watch_root_certs();
        if (!identity.empty()) tls.watch_identity_key_cert_pairs();
      }
      creds = grpc::experimental::TlsCredentials(tls);
    } else {
      grpc::SslCredentialsOptions ssl;
      ssl.pem_root_certs = options.tls_root_certs;
      if (options.client_cert) {
        ssl.pem_cert_chain = options.client_cert->pem_cert;
        ssl.pem_private_key = options.client_cert->pem_key;
      }
      creds = grpc::SslCredentials(ssl);
    }
    if (!options.override_hostname.empty()) {
      args.SetSslTargetNameOverride(options.override_hostname);
    }
  } else {
    return Status::Invalid("Flight client: cannot connect to '", location.uri,
                           "' (expected grpc://, grpc+tcp://, grpc+tls:// or grpc+unix://)");
  }
  std::shared_ptr<grpc::Channel> channel;
  if (auto interceptors = client_middleware::MakeInterceptorFactory(options, target)) {
    std::vector<std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface>> list;
    list.push_back(std::move(interceptors));
    channel = grpc::experimental::CreateCustomChannelWithInterceptors(target, creds, args,
                                                                      std::move(list));
  } else {
    channel = grpc::CreateCustomChannel(target, creds, args);
  }
  auto impl = std::make_unique<Impl>(channel);
  impl->options = options;
  return std::unique_ptr<FlightClient>(new FlightClient(std::move(impl)));
}

Status FlightClient::Close() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->closed = true;
  return Status::OK();
}

Result<std::vector<std::string>> FlightClient::Handshake(const std::vector<std::string>& payloads,
                                                         const CallOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto c, impl_->Start(options));
  auto stream = impl_->stub->Handshake(&c->ctx);
  for (const auto& p : payloads) {
    pb::HandshakeRequest request;
    request.set_payload(p);
    if (!stream->Write(request)) break;
  }
  stream->WritesDone();
  std::vector<std::string> answers;
  pb::HandshakeResponse response;
  while (stream->Read(&response)) answers.push_back(response.payload());
  ALKAID_RETURN_NOT_OK(impl_->Check(stream->Finish(), *c, "Handshake"));
  return answers;
}

Status FlightClient::AuthenticateBasic(std::string_view user, std::string_view password,
                                       const CallOptions& options) {
  CallOptions with_basic = options;
  with_basic.headers.emplace_back(
      "authorization",
      "Basic " + alkaid::internal::Base64Encode(std::string(user) + ":" + std::string(password)));
  ALKAID_ASSIGN_OR_RAISE(auto c, impl_->Start(with_basic));
  auto stream = impl_->stub->Handshake(&c->ctx);
  pb::BasicAuth basic;
  basic.set_username(std::string(user));
  basic.set_password(std::string(password));
  pb::HandshakeRequest request;
  request.set_payload(basic.SerializeAsString());
  stream->Write(request);
  stream->WritesDone();
  std::vector<std::string> answers;
  pb::HandshakeResponse response;
  while (stream->Read(&response)) answers.push_back(response.payload());
  ALKAID_RETURN_NOT_OK(impl_->Check(stream->Finish(), *c, "Handshake"));
  std::string token;
  bool from_payload = false;
  const auto& initial = c->ctx.GetServerInitialMetadata();
  auto header = initial.find("authorization");
  constexpr std::string_view kBearer = "Bearer ";
  if (header != initial.end() &&
      std::string_view(header->second.data(), header->second.size()).substr(0, kBearer.size()) ==
          kBearer) {
    token = std::string(header->second.data() + kBearer.size(),
                        header->second.size() - kBearer.size());
  } else if (!answers.empty()) {
    token = answers.front();
    from_payload = true;
  } else {
    return FlightError(FlightStatusCode::kUnauthenticated,
                       "Handshake: the server answered no bearer token");
  }
  std::lock_guard<std::mutex> lock(impl_->mu);
  impl_->bearer = "Bearer " + token;
  impl_->token_bin = from_payload ? token : std::string();
  return Status::OK();
}

Result<std::vector<FlightInfo>> FlightClient::ListFlights(const Criteria& criteria,
                                                          const CallOptions& options) {
  return impl_->Stream<FlightInfo>("ListFlights", criteria, options, &Stub::ListFlights);
}

Result<FlightInfo> FlightClient::GetFlightInfo(const FlightDescriptor& descriptor,
                                               const CallOptions& options) {
  return impl_->Unary<FlightInfo>("GetFlightInfo", descriptor, options, &Stub::GetFlightInfo);
}

Result<PollInfo> FlightClient::PollFlightInfo(const FlightDescriptor& descriptor,
                                              const CallOptions& options) {
  return impl_->Unary<PollInfo>("PollFlightInfo", descriptor, options, &Stub::PollFlightInfo);
}

Result<SchemaResult> FlightClient::GetSchema(const FlightDescriptor& descriptor,
                                             const CallOptions& options) {
  return impl_->Unary<SchemaResult>("GetSchema", descriptor, options, &Stub::GetSchema);
}

Result<std::unique_ptr<FlightStreamReader>> FlightClient::DoGet(const Ticket& ticket,
                                                                const CallOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto c, impl_->Start(options));
  pb::Ticket request;
  proto::ToProto(ticket, &request);
  auto reader = std::make_unique<DoGetReader>(std::move(c), options.read_options,
                                              impl_->options.max_error_text_bytes);
  reader->Open(impl_->do_get_method, impl_->channel.get(), request,
               impl_->options.max_receive_message_bytes);
  return std::unique_ptr<FlightStreamReader>(std::move(reader));
}

Result<DoPutCall> FlightClient::DoPut(const FlightDescriptor& descriptor, const SchemaPtr& schema,
                                      const CallOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto c, impl_->Start(options));
  auto call = StreamCall<pb::PutResult>::Open("DoPut", std::move(c), impl_->channel.get(),
                                               impl_->do_put_method,
                                               impl_->options.max_error_text_bytes);
  auto writer = std::make_unique<UploadWriter<pb::PutResult>>(
      call, options.write_options, proto::SerializeAs<pb::FlightDescriptor>(descriptor));
  auto reader = std::make_unique<PutResultReader>(call, writer->unread_);
  if (schema) ALKAID_RETURN_NOT_OK(writer->Begin(schema));
  DoPutCall out;
  out.writer = std::move(writer);
  out.reader = std::move(reader);
  return out;
}

Result<DoExchangeCall> FlightClient::DoExchange(const FlightDescriptor& descriptor,
                                                const CallOptions& options) {
  ALKAID_ASSIGN_OR_RAISE(auto c, impl_->Start(options));
  auto call = StreamCall<wire::FlightData>::Open("DoExchange", std::move(c),
                                                  impl_->channel.get(), impl_->do_exchange_method,
                                                  impl_->options.max_error_text_bytes);
  auto writer = std::make_unique<UploadWriter<wire::FlightData>>(
      call, options.write_options, proto::SerializeAs<pb::FlightDescriptor>(descriptor));
  // The descriptor goes out at once: the server's handler starts on the first message.
  ALKAID_RETURN_NOT_OK(writer->SendDescriptor());
  auto reader = std::make_unique<DataReader>(
      [call, receive_limit = impl_->options.max_receive_message_bytes](wire::FlightData* d) {
        wire::ScopedReceiveLimit limit(receive_limit);
        return call->stream->Read(d);
      },
      [call] { return call->Finish(); }, &call->call->ctx, options.read_options);
  DoExchangeCall out;
  out.writer = std::move(writer);
  out.reader = std::move(reader);
  return out;
}

Result<std::vector<ActionResult>> FlightClient::DoAction(const Action& action,
                                                         const CallOptions& options) {
  return impl_->Stream<ActionResult>("DoAction", action, options, &Stub::DoAction);
}

Result<std::vector<ActionType>> FlightClient::ListActions(const CallOptions& options) {
  return impl_->Stream<ActionType>("ListActions", pb::Empty(), options, &Stub::ListActions);
}

Result<CancelFlightInfoResult> FlightClient::CancelFlightInfo(
    const CancelFlightInfoRequest& request, const CallOptions& options) {
  return impl_->WellKnown<pb::CancelFlightInfoResult, CancelFlightInfoResult>(
      ActionType::kCancelFlightInfo, proto::SerializeAs<pb::CancelFlightInfoRequest>(request),
      options);
}

Result<FlightEndpoint> FlightClient::RenewFlightEndpoint(const RenewFlightEndpointRequest& request,
                                                         const CallOptions& options) {
  return impl_->WellKnown<pb::FlightEndpoint, FlightEndpoint>(
      ActionType::kRenewFlightEndpoint,
      proto::SerializeAs<pb::RenewFlightEndpointRequest>(request), options);
}

Result<SetSessionOptionsResult> FlightClient::SetSessionOptions(
    const SetSessionOptionsRequest& request, const CallOptions& options) {
  return impl_->WellKnown<pb::SetSessionOptionsResult, SetSessionOptionsResult>(
      ActionType::kSetSessionOptions, proto::SerializeAs<pb::SetSessionOptionsRequest>(request),
      options);
}

Result<GetSessionOptionsResult> FlightClient::GetSessionOptions(const CallOptions& options) {
  return impl_->WellKnown<pb::GetSessionOptionsResult, GetSessionOptionsResult>(
      ActionType::kGetSessionOptions, pb::GetSessionOptionsRequest().SerializeAsString(), options);
}

Result<CloseSessionStatus> FlightClient::CloseSession(const CallOptions& options) {
  return impl_->WellKnown<pb::CloseSessionResult, CloseSessionStatus>(
      ActionType::kCloseSession, pb::CloseSessionRequest().SerializeAsString(), options);
}

}  // namespace alkaid::flight
