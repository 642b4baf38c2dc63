// Basic authentication as Arrow Flight peers do it: the client's Handshake carries the user
// and password (an "authorization: Basic <base64>" header, and a BasicAuth message as the
// payload for peers that send that instead); the server answers a bearer token, both as the
// Handshake's payload and as an "authorization: Bearer <token>" header, and later calls
// present it in their "authorization" header.
#pragma once

#include <string>
#include <string_view>

#include "alkaid/flight/middleware.h"
#include "alkaid/visibility.h"

namespace alkaid::flight::auth {

/// True for handlers made by MakeBasicAuthHandler: the server then also sends the token as a
/// header when the Handshake answers.
bool SendsBearerHeader(const ServerAuthHandler& handler);

}  // namespace alkaid::flight::auth
