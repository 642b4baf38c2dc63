// Value helpers of the Flight public types: locations, descriptors, Flight status codes.
#include "alkaid/flight/types.h"

#include <gtest/gtest.h>

#include "alkaid/flight/middleware.h"
#include "alkaid/flight/options.h"

namespace alkaid::flight {
namespace {

TEST(FlightLocation, ParsesTheGrpcSchemes) {
  for (const char* uri : {"grpc://127.0.0.1:0", "grpc+tcp://localhost:31337",
                          "grpc+tls://[::1]:443", "grpc+unix:///tmp/flight.sock", "",
                          "arrow-flight-reuse-connection://?", "https://example.com/data"}) {
    auto loc = Location::Parse(uri);
    ASSERT_TRUE(loc.ok()) << uri << ": " << loc.status().ToString();
    EXPECT_EQ(loc->uri, uri);
  }
  EXPECT_EQ(Location::ForGrpcTcp("::1", 5).uri, "grpc+tcp://[::1]:5");
  EXPECT_EQ(Location::ForGrpcTls("h", 7).scheme(), "grpc+tls");
  EXPECT_EQ(Location::ReuseConnection().uri, "arrow-flight-reuse-connection://?");
}

TEST(FlightLocation, RefusesMalformedUrisNamingThem) {
  for (const char* uri : {"localhost:5", "grpc://localhost", "grpc://host:99999",
                          "grpc://host:12x", "grpc+unix://relative", "://x"}) {
    auto loc = Location::Parse(uri);
    ASSERT_FALSE(loc.ok()) << uri;
    EXPECT_TRUE(loc.status().IsInvalid());
    EXPECT_NE(loc.status().message().find(uri), std::string::npos) << loc.status().ToString();
  }
}

TEST(FlightDescriptor, ToStringIsBoundedAndEscaped) {
  EXPECT_EQ(FlightDescriptor::Path({"a", "b"}).ToString(), "path a/b");
  EXPECT_EQ(FlightDescriptor::Command(std::string("q\0\n", 3)).ToString(), "cmd q\\x00\\x0a");
  std::string huge(1 << 20, 'x');
  std::string text = FlightDescriptor::Command(huge).ToString();
  EXPECT_LT(text.size(), 200u);
  EXPECT_NE(text.find("1048576 bytes"), std::string::npos);
  EXPECT_EQ(FlightDescriptor::Path({"t"}), FlightDescriptor::Path({"t"}));
}

TEST(FlightStatus, CodesRoundTripThroughStatus) {
  for (auto code : {FlightStatusCode::kUnauthenticated, FlightStatusCode::kUnauthorized,
                    FlightStatusCode::kUnavailable, FlightStatusCode::kCancelled,
                    FlightStatusCode::kTimedOut, FlightStatusCode::kResourceExhausted}) {
    Status st = FlightError(code, "details");
    EXPECT_TRUE(st.IsIOError());
    EXPECT_EQ(FlightStatusCodeOf(st), code) << st.ToString();
  }
  EXPECT_EQ(FlightStatusCodeOf(Status::IOError("disk full")), std::nullopt);
  EXPECT_EQ(FlightStatusCodeOf(Status::Invalid("Flight Cancelled: x")), std::nullopt);
  EXPECT_STREQ(FlightMethodName(FlightMethod::kDoExchange), "DoExchange");
}

TEST(FlightStopSource, CopiesShareOneFlag) {
  StopSource a;
  StopSource b = a;
  EXPECT_FALSE(b.stop_requested());
  a.RequestStop();
  EXPECT_TRUE(b.stop_requested());
}

}  // namespace
}  // namespace alkaid::flight
