// A user's CUDA kernel (tests/extensions/test_cpp_extension.py): out = x + 1 for a contiguous float32 tensor.
#include <torch/extension.h>

namespace {

__global__ void add_one_kernel(const float* x, float* out, int64_t n) {
  int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = x[i] + 1.0f;
}

torch::Tensor add_one(const torch::Tensor& input) {
  TH_CHECK_T(th::ValueError, input.device().is_cuda() && input.dtype() == th::ScalarType::Float,
             "add_one: expected a float32 CUDA tensor");
  torch::Tensor x = th::contiguous(input);
  torch::Tensor out = th::empty_like(x, std::nullopt, std::nullopt);
  int64_t n = x.numel();
  if (n > 0)
    add_one_kernel<<<(n + 255) / 256, 256>>>(reinterpret_cast<const float*>(x.data_ptr()),
                                             reinterpret_cast<float*>(out.data_ptr()), n);
  TH_CHECK(cudaGetLastError() == cudaSuccess, "add_one: kernel launch failed");
  return out;
}

}  // namespace

NB_MODULE(TORCH_EXTENSION_NAME, m) { m.def("add_one", &add_one); }
