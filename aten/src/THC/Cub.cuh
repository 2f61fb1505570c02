#pragma once
// CUB's device-wide algorithms with their temporary storage from the caching allocator.
#include <algorithm>
#include <cstddef>

#include <TH/Tensor.h>

#include "Exception.h"
#include "Stream.h"

namespace thc {

/// Runs `algorithm(void* temp, size_t& temp_bytes, cudaStream_t stream)`, a CUB device-wide call on
/// the current stream, twice: once to ask how much temporary storage it needs, once with that much (a
/// byte tensor on `device`, from the caching allocator on that stream).
template <typename Algorithm>
void cub_call(th::Device device, const Algorithm& algorithm) {
  size_t bytes = 0;
  const cudaStream_t stream = device.index >= 0 ? current_stream(device.index) : current_stream();
  THC_CHECK(algorithm(nullptr, bytes, stream));
  // at least one byte: a null pointer would make the second call a query again
  th::Tensor temp = th::empty_tensor({int64_t(std::max<size_t>(bytes, 1))}, th::ScalarType::Byte, device);
  THC_CHECK(algorithm(temp.data_ptr(), bytes, stream));
}

}  // namespace thc
