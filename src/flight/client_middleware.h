// ClientOptions::middleware as a gRPC client interceptor: gRPC runs it around every call of the
// channel (the generated stubs' calls and the hand-built data streams alike), at the points
// where headers go out, the server's headers arrive and the status arrives.
#pragma once

#include <grpcpp/support/client_interceptor.h>

#include <memory>
#include <string>
#include <vector>

#include "alkaid/flight/options.h"

namespace alkaid::flight::client_middleware {

/// The interceptor factory for `options.middleware`; null when there is none (the channel then
/// has no interceptor at all). `target` is what CallInfo::peer reports.
std::unique_ptr<grpc::experimental::ClientInterceptorFactoryInterface> MakeInterceptorFactory(
    const ClientOptions& options, std::string target);

}  // namespace alkaid::flight::client_middleware
