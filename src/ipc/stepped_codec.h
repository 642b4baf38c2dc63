// Internal: the codecs behind Codec::Create (one file each: lz4_frame_codec.cc,
// zstd_codec.cc) and what they offer beyond the public Codec: compressing and
// decompressing one frame in steps, stopping early when another thread has
// finished the same buffer (body_compression.cc, body_decompression.cc race
// a second attempt against a preempted thread). Not installed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "alkaid/ipc/compression.h"

namespace alkaid::ipc::internal {

// A codec that can work in steps. Both step functions produce exactly the
// bytes of their one-call counterparts, and return 0 without finishing as
// soon as stop() is true between two steps.
class SteppedCodec : public Codec {
 public:
  SteppedCodec(CompressionType type, int level) : type_(type), level_(level) {}
  CompressionType type() const final { return type_; }
  int level() const final { return level_; }

  virtual Result<int64_t> CompressSteps(const uint8_t* input, int64_t input_size,
                                        uint8_t* output, int64_t output_capacity,
                                        const std::function<bool()>& stop) const = 0;
  // Without `stop` (null), in one library call that cannot give up.
  virtual Result<int64_t> DecompressSteps(const uint8_t* input, int64_t input_size,
                                          uint8_t* output, int64_t output_size,
                                          const std::function<bool()>* stop) const = 0;

 protected:
  const CompressionType type_;
  const int level_;  // already checked against the codec's range
};

// `codec` as a SteppedCodec, or null when it is not one of alkaid's (a
// user's own Codec), which then runs one buffer per thread without racing.
inline const SteppedCodec* AsSteppedCodec(const Codec& codec) {
  return dynamic_cast<const SteppedCodec*>(&codec);
}

// The codecs, for Codec::Create: out-of-range levels are refused.
Result<std::unique_ptr<Codec>> MakeLz4FrameCodec(int level);
Result<std::unique_ptr<Codec>> MakeZstdCodec(int level);

}  // namespace alkaid::ipc::internal
