#pragma once
// TH's op entry points: device-generic functions that check their arguments, set up a
// TensorIterator and call the kernel from the dispatch table. torch._C binds these
// (declared again by the generated binding shards from aten/native_functions.yaml).
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "Generator.h"
#include "Scalar.h"
#include "Tensor.h"
#include "math/Unary.h"

namespace th {

// factories (ops/Factories.cpp)
Tensor empty(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device,
             std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor zeros(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor ones(const IntList& size, std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor full(const IntList& size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Device> device);
Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Device> device, std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, std::optional<ScalarType> dtype,
              std::optional<Device> device);
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, std::optional<ScalarType> dtype,
                std::optional<Device> device);
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base,
                std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Device> device);

// filling and copying (ops/Fill.cpp, ops/Copy.cpp)
Tensor& fill_(Tensor& self, const Scalar& value);
Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking = false);
/// `self` in `dtype` (and `memory_format`): self itself when nothing changes and `copy` is false.
Tensor to(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format = std::nullopt);
/// `self` on `device` (default: its own), in `dtype` and `memory_format` (default: preserved).
Tensor to(const Tensor& self, std::optional<Device> device, std::optional<ScalarType> dtype,
          bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format = std::nullopt);
/// `self` converted to `dtype` (self itself when it already has it).
Tensor to_dtype(const Tensor& self, ScalarType dtype);
/// `self` if already laid out in `memory_format`, else a copy that is.
Tensor contiguous(const Tensor& self, MemoryFormat memory_format = MemoryFormat::Contiguous);
/// `self` (a CPU tensor) in pinned memory: itself if it already is, else a copy (Tensor.pin_memory).
Tensor pin_memory(const Tensor& self);
/// A copy of `self`, laid out in `memory_format` (default: preserve a dense self's layout).
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format = std::nullopt);

// pointwise arithmetic with broadcasting and type promotion (ops/Binary.cpp)
Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& add_(Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& sub_(Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha);
Tensor mul(const Tensor& self, const Tensor& other);
Tensor& mul_(Tensor& self, const Tensor& other);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);

// unary op families: name(self), name_(self), name_out(out, self) (ops/Unary.cpp)
#define TH_DECLARE_UNARY(name, Functor, expr) \
  Tensor name(const Tensor& self);            \
  Tensor& name##_(Tensor& self);              \
  Tensor& name##_out(Tensor& out, const Tensor& self);
TH_UNARY_FLOAT_OPS(TH_DECLARE_UNARY)
TH_UNARY_KEEP_OPS(TH_DECLARE_UNARY)
#undef TH_DECLARE_UNARY

// binary op families: name(self, other), name_(self, other), name_out(out, self, other)
#define TH_DECLARE_BINARY(name)                         \
  Tensor name(const Tensor& self, const Tensor& other); \
  Tensor& name##_(Tensor& self, const Tensor& other);   \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);
TH_DECLARE_BINARY(floor_divide)
TH_DECLARE_BINARY(remainder)
TH_DECLARE_BINARY(fmod)
TH_DECLARE_BINARY(pow)
TH_DECLARE_BINARY(atan2)
TH_DECLARE_BINARY(maximum)
TH_DECLARE_BINARY(minimum)
TH_DECLARE_BINARY(bitwise_and)
TH_DECLARE_BINARY(bitwise_or)
TH_DECLARE_BINARY(bitwise_xor)
TH_DECLARE_BINARY(eq)
TH_DECLARE_BINARY(ne)
TH_DECLARE_BINARY(lt)
TH_DECLARE_BINARY(le)
TH_DECLARE_BINARY(gt)
TH_DECLARE_BINARY(ge)
TH_DECLARE_BINARY(logical_and)
TH_DECLARE_BINARY(logical_or)
TH_DECLARE_BINARY(logical_xor)
#undef TH_DECLARE_BINARY
Tensor div(const Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode);
Tensor& div_(Tensor& self, const Tensor& other, const std::optional<std::string>& rounding_mode);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                const std::optional<std::string>& rounding_mode);

// reductions (ops/Reduce.cpp)
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype);
Tensor sum(const Tensor& self, const std::optional<IntList>& dim, bool keepdim,
           std::optional<ScalarType> dtype);
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype);
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype);
Tensor mean(const Tensor& self, const std::optional<IntList>& dim, bool keepdim,
            std::optional<ScalarType> dtype);
Tensor amax(const Tensor& self, const IntList& dim, bool keepdim);
Tensor amin(const Tensor& self, const IntList& dim, bool keepdim);
Tensor all(const Tensor& self);
Tensor all(const Tensor& self, int64_t dim, bool keepdim);
Tensor any(const Tensor& self);
Tensor any(const Tensor& self, int64_t dim, bool keepdim);
Tensor max(const Tensor& self);
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim);

// random numbers from a Philox generator (ops/Random.cpp)
Tensor& uniform_(Tensor& self, double from, double to, const std::optional<Generator>& generator);
Tensor& normal_(Tensor& self, double mean, double std, const std::optional<Generator>& generator);
Tensor rand(const IntList& size, const std::optional<Generator>& generator, std::optional<ScalarType> dtype,
            std::optional<Device> device);
Tensor randn(const IntList& size, const std::optional<Generator>& generator, std::optional<ScalarType> dtype,
             std::optional<Device> device);
Tensor randint(int64_t high, const IntList& size, const std::optional<Generator>& generator,
               std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor randint(int64_t low, int64_t high, const IntList& size, const std::optional<Generator>& generator,
               std::optional<ScalarType> dtype, std::optional<Device> device);
Tensor randperm(int64_t n, const std::optional<Generator>& generator, std::optional<ScalarType> dtype,
                std::optional<Device> device);
Tensor rand_like(const Tensor& self, const std::optional<Generator>& generator,
                 std::optional<ScalarType> dtype, std::optional<Device> device,
                 std::optional<MemoryFormat> memory_format = std::nullopt);
Tensor randn_like(const Tensor& self, const std::optional<Generator>& generator,
                  std::optional<ScalarType> dtype, std::optional<Device> device,
                  std::optional<MemoryFormat> memory_format = std::nullopt);

// joining, selecting, clamping, scans and moments (ops/Join, Select, Scan, Moments.cpp)
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
Tensor stack(const std::vector<Tensor>& tensors, int64_t dim);
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
Tensor var(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim);
Tensor std(const Tensor& self, const std::optional<IntList>& dim, const std::optional<Scalar>& correction,
           bool keepdim);

// indexing (ops/Index.cpp)
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate);

// linear algebra on BLAS (CPU) or a tiled kernel (CUDA) (ops/Linear.cpp)
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor& mm_out(Tensor& out, const Tensor& self, const Tensor& mat2);
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor& bmm_out(Tensor& out, const Tensor& self, const Tensor& mat2);
Tensor mv(const Tensor& self, const Tensor& vec);
Tensor dot(const Tensor& self, const Tensor& tensor);
Tensor outer(const Tensor& self, const Tensor& vec2);
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha);
/// self = beta * self + alpha * mat1 @ mat2 in place (self [M, N]; written directly when contiguous, so
/// a contiguous block of a larger tensor is a gemm destination without a copy).
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha);
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor& matmul_out(Tensor& out, const Tensor& self, const Tensor& other);

// views: new metadata over the same storage (ops/Views.cpp)
Tensor as_strided(const Tensor& self, const IntList& size, const IntList& stride,
                  std::optional<int64_t> storage_offset);
Tensor view(const Tensor& self, const IntList& size);
Tensor reshape(const Tensor& self, const IntList& shape);
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim);
Tensor unflatten(const Tensor& self, int64_t dim, const IntList& sizes);
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Tensor t(const Tensor& self);
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim);
std::vector<Tensor> unbind(const Tensor& self, int64_t dim);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor permute(const Tensor& self, const IntList& dims);
Tensor expand(const Tensor& self, const IntList& size);
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
             int64_t step);

}  // namespace th
