// CUDA kernels of the spectral family. With cuFFT (its wheel installed: cmake/TorchCUDALibs.cmake), each
// transform runs as cuFFT passes over at most three dims at a time: the pass's dims are moved last (a
// contiguous copy), one batched plan transforms them, and the result is moved back; r2c transforms its
// halved dim in the first pass, c2r in the last, the other dims being complex passes. Plans are cached
// per device (an LRU of max_size plans, torch.backends.cuda.cufft_plan_cache); cuFFT itself is opened on
// the first transform (LazyLibrary.h). Without cuFFT (not in the build, or its wheel gone since) a
// transform runs the CPU kernel (ducc0) on host copies: correct on every GPU, and slow.
#include <TH/Functions.h>
#include <TH/ops/Spectral.h>

#include "LazyLibrary.h"
#include "SpectralPlanCache.h"
#include "Stream.h"

#ifdef THC_HAVE_CUFFT
#include <cufft.h>

#include <algorithm>
#include <climits>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <tuple>
#include <vector>

#include "DeviceGuard.h"
#include "Exception.h"
#endif

namespace thc {
namespace {

#ifdef THC_HAVE_CUFFT
LazyLibrary& cufft() {
  static LazyLibrary lib(THC_SONAME("libcufft.so.", CUFFT_VER_MAJOR), "nvidia-cufft");
  return lib;
}
/// cuFFT's function `fn` (of its declaration's type), looked up once per call site.
#define THC_CUFFT_FN(fn)                                  \
  ([] {                                                   \
    static auto* p = cufft().function<decltype(fn)>(#fn); \
    return p;                                             \
  }())

const char* cufft_error_name(cufftResult r) {
  switch (r) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "a cuFFT error";
  }
}
#define THC_CUFFT_CHECK(expr)                                                                               \
  do {                                                                                                      \
    cufftResult _r = (expr);                                                                                \
    TH_CHECK(_r == CUFFT_SUCCESS, "cuFFT error: ", cufft_error_name(_r), " (", int(_r), ") when calling `", \
             #expr, "`");                                                                                   \
  } while (0)

/// What a plan is for: its type, the logical signal sizes (the real side's for r2c/c2r) and the batch.
using PlanKey = std::tuple<int, std::vector<long long>, long long>;

/// A plan without a work area of its own: each transform takes `work_bytes` from the caching allocator
/// on the stream it runs on (as upstream), so that one plan can run on two streams.
struct Plan {
  cufftHandle handle = 0;
  size_t work_bytes = 0;
  explicit Plan(const PlanKey& key) {
    const auto& [type, n, batch] = key;
    std::vector<long long> sizes = n;
    size_t& work = work_bytes;
    THC_CUFFT_CHECK(THC_CUFFT_FN(cufftCreate)(&handle));
    cufftResult r = THC_CUFFT_FN(cufftSetAutoAllocation)(handle, 0);
    if (r == CUFFT_SUCCESS)
      r = THC_CUFFT_FN(cufftMakePlanMany64)(handle, int(sizes.size()), sizes.data(), nullptr, 1, 0, nullptr,
                                            1, 0, cufftType(type), batch, &work);
    if (r != CUFFT_SUCCESS) THC_CUFFT_FN(cufftDestroy)(handle);
    THC_CUFFT_CHECK(r);
  }
  ~Plan() { THC_CUFFT_FN(cufftDestroy)(handle); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
};

/// One device's plans, least recently used first out.
struct DeviceCache {
  std::mutex mutex;  // held while a plan is looked up and its transform launched (a plan's work area
                     // is not for two transforms at once)
  std::list<std::pair<PlanKey, std::unique_ptr<Plan>>> lru;  // most recently used first
  std::map<PlanKey, decltype(lru)::iterator> index;
  int64_t max_size = kDefaultPlanCacheMaxSize;

  void trim() {
    while (int64_t(lru.size()) > max_size) {
      index.erase(lru.back().first);
      lru.pop_back();
    }
  }
  Plan& get(const PlanKey& key) {
    auto it = index.find(key);
    if (it != index.end()) {
      lru.splice(lru.begin(), lru, it->second);
      return *lru.front().second;
    }
    auto plan = std::make_unique<Plan>(key);  // raises before the cache changes
    lru.emplace_front(key, std::move(plan));
    index[key] = lru.begin();
    Plan& p = *lru.front().second;
    if (max_size > 0) {
      trim();
    } else {  // a cache of size 0 keeps nothing: this plan lives until the next lookup
      while (lru.size() > 1) {
        index.erase(lru.back().first);
        lru.pop_back();
      }
    }
    return p;
  }
};

DeviceCache& device_cache(int device) {
  static std::mutex mutex;
  static std::map<int, std::unique_ptr<DeviceCache>> caches;
  std::lock_guard<std::mutex> lock(mutex);
  auto& c = caches[device];
  if (!c) c = std::make_unique<DeviceCache>();
  return *c;
}

/// `t` with `pass` (dims of t, in order) moved last, contiguous; `perm` receives the permutation.
th::Tensor dims_last(const th::Tensor& t, const th::IntList& pass, th::IntList& perm) {
  perm.clear();
  for (int64_t d = 0; d < t.dim(); ++d)
    if (std::find(pass.begin(), pass.end(), d) == pass.end()) perm.push_back(d);
  perm.insert(perm.end(), pass.begin(), pass.end());
  return th::contiguous(th::permute(t, perm));
}

/// One cuFFT pass over `pass` (at most 3 dims of `in`): the result in in's dim order (a permuted view
/// of a contiguous tensor). `last_size` is the real length of the last pass dim for C2R. The last pass
/// of a transform passes the result tensor `out`, written in place when the pass's dims are already last.
th::Tensor fft_pass(const th::Tensor& in, const th::IntList& pass, cufftType type, int direction,
                    int64_t last_size, th::ScalarType out_dtype, bool in_is_temporary,
                    const th::Tensor* out) {
  th::IntList perm;
  th::Tensor src = dims_last(in, pass, perm);
  // cuFFT's c2r overwrites its input: copy it unless it is already a copy (or a temporary of ours)
  if ((type == CUFFT_C2R || type == CUFFT_Z2D) && !in_is_temporary && src.data_ptr() == in.data_ptr())
    src = th::clone(src);
  th::IntList out_sizes = src.sizes();
  const int64_t rank = int64_t(pass.size()), nd = src.dim();
  std::vector<long long> n(pass.size());
  for (int64_t k = 0; k < rank; ++k) n[size_t(k)] = src.size(nd - rank + k);
  if (type == CUFFT_R2C || type == CUFFT_D2Z) out_sizes.back() = out_sizes.back() / 2 + 1;
  if (type == CUFFT_C2R || type == CUFFT_Z2D) n.back() = out_sizes.back() = last_size;
  long long batch = 1;
  for (int64_t k = 0; k < nd - rank; ++k) batch *= src.size(k);
  bool in_order = true;  // the pass's dims are already last: its result lies in `out`'s layout
  for (size_t k = 0; k < perm.size(); ++k) in_order = in_order && perm[k] == int64_t(k);
  th::Tensor dst = out && in_order ? *out : th::empty_tensor(out_sizes, out_dtype, in.device());
  DeviceGuard guard(in.device());
  int device = 0;
  THC_CHECK(cudaGetDevice(&device));
  DeviceCache& cache = device_cache(device);
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    Plan& plan = cache.get(PlanKey{int(type), n, batch});
    const cudaStream_t stream = current_stream();
    th::Tensor work =
        th::empty_tensor({int64_t(std::max<size_t>(plan.work_bytes, 1))}, th::ScalarType::Byte, in.device());
    THC_CUFFT_CHECK(THC_CUFFT_FN(cufftSetWorkArea)(plan.handle, work.data_ptr()));
    THC_CUFFT_CHECK(THC_CUFFT_FN(cufftSetStream)(plan.handle, stream));
    void* i = src.data_ptr();
    void* o = dst.data_ptr();
    switch (type) {
      case CUFFT_C2C:
        THC_CUFFT_CHECK(THC_CUFFT_FN(cufftExecC2C)(plan.handle, static_cast<cufftComplex*>(i),
                                                   static_cast<cufftComplex*>(o), direction));
        break;
      case CUFFT_Z2Z:
        THC_CUFFT_CHECK(THC_CUFFT_FN(cufftExecZ2Z)(plan.handle, static_cast<cufftDoubleComplex*>(i),
                                                   static_cast<cufftDoubleComplex*>(o), direction));
        break;
      case CUFFT_R2C:
        THC_CUFFT_CHECK(THC_CUFFT_FN(cufftExecR2C)(plan.handle, static_cast<cufftReal*>(i),
                                                   static_cast<cufftComplex*>(o)));
        break;
      case CUFFT_D2Z:
        THC_CUFFT_CHECK(THC_CUFFT_FN(cufftExecD2Z)(plan.handle, static_cast<cufftDoubleReal*>(i),
                                                   static_cast<cufftDoubleComplex*>(o)));
        break;
      case CUFFT_C2R:
        THC_CUFFT_CHECK(THC_CUFFT_FN(cufftExecC2R)(plan.handle, static_cast<cufftComplex*>(i),
                                                   static_cast<cufftReal*>(o)));
        break;
      case CUFFT_Z2D:
        THC_CUFFT_CHECK(THC_CUFFT_FN(cufftExecZ2D)(plan.handle, static_cast<cufftDoubleComplex*>(i),
                                                   static_cast<cufftDoubleReal*>(o)));
        break;
    }
  }
  th::IntList inverse(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) inverse[size_t(perm[k])] = int64_t(k);
  return th::permute(dst, inverse);
}

/// The passes of a transform over `dims`: chunks of at most 3 dims, the chunk holding dims.back() last.
std::vector<th::IntList> passes(const th::IntList& dims) {
  std::vector<th::IntList> out;
  const size_t n = dims.size(), head = n % 3;
  if (head) out.emplace_back(dims.begin(), dims.begin() + int64_t(head));
  for (size_t k = head; k < n; k += 3)
    out.emplace_back(dims.begin() + int64_t(k), dims.begin() + int64_t(k + 3));
  return out;
}

/// out = scale * result (out contiguous, of result's shape and dtype).
void store(const th::Tensor& out, const th::Tensor& result, double scale) {
  th::Tensor dst = out;
  if (result.data_ptr() != out.data_ptr()) th::copy_(dst, result);  // else the last pass wrote out itself
  if (scale != 1.0) th::mul_(dst, th::wrap_number(th::Scalar(scale)));
}

bool is_double(th::ScalarType t) { return t == th::ScalarType::ComplexDouble || t == th::ScalarType::Double; }

void c2c_cufft(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, bool forward,
               double scale) {
  const bool dbl = is_double(in.dtype());
  const std::vector<th::IntList> ps = passes(dims);
  th::Tensor x = in;
  for (size_t k = 0; k < ps.size(); ++k)
    x = fft_pass(x, ps[k], dbl ? CUFFT_Z2Z : CUFFT_C2C, forward ? CUFFT_FORWARD : CUFFT_INVERSE, 0,
                 in.dtype(), k > 0, k + 1 == ps.size() ? &out : nullptr);
  store(out, x, scale);
}

void r2c_cufft(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, double scale) {
  const bool dbl = is_double(in.dtype());
  std::vector<th::IntList> ps = passes(dims);
  th::Tensor x = fft_pass(in, ps.back(), dbl ? CUFFT_D2Z : CUFFT_R2C, CUFFT_FORWARD, 0, out.dtype(), false,
                          ps.size() == 1 ? &out : nullptr);
  for (size_t k = 0; k + 1 < ps.size(); ++k)
    x = fft_pass(x, ps[k], dbl ? CUFFT_Z2Z : CUFFT_C2C, CUFFT_FORWARD, 0, out.dtype(), true,
                 k + 2 == ps.size() ? &out : nullptr);
  store(out, x, scale);
}

void c2r_cufft(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, double scale) {
  const bool dbl = is_double(in.dtype());
  std::vector<th::IntList> ps = passes(dims);
  th::Tensor x = in;
  for (size_t k = 0; k + 1 < ps.size(); ++k)
    x = fft_pass(x, ps[k], dbl ? CUFFT_Z2Z : CUFFT_C2C, CUFFT_INVERSE, 0, in.dtype(), k > 0, nullptr);
  x = fft_pass(x, ps.back(), dbl ? CUFFT_Z2D : CUFFT_C2R, CUFFT_INVERSE, out.size(dims.back()), out.dtype(),
               ps.size() > 1, &out);
  store(out, x, scale);
}
#endif

th::Tensor host(const th::Tensor& t) { return th::to(t, th::Device(), t.dtype(), false, false); }

/// Runs `cpu(in_host, out_host)` and copies out_host into the CUDA `out`.
template <typename F>
void on_host(const th::Tensor& in, const th::Tensor& out, F cpu) {
  th::Tensor hin = host(in), hout = th::empty_tensor(out.sizes(), out.dtype(), th::Device());
  cpu(hin, hout);
  th::Tensor dst = out;
  th::copy_(dst, hout);
}

/// Whether cuFFT runs the transforms (in the build, and loadable now).
bool use_cufft() {
#ifdef THC_HAVE_CUFFT
  return cufft().available();
#else
  return false;
#endif
}

void c2c_kernel(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, bool forward,
                double scale) {
#ifdef THC_HAVE_CUFFT
  if (use_cufft()) return c2c_cufft(in, out, dims, forward, scale);
#endif
  on_host(in, out, [&](const th::Tensor& i, const th::Tensor& o) {
    th::fft_c2c_stub[th::DeviceType::CPU](i, o, dims, forward, scale);
  });
}
void r2c_kernel(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, double scale) {
#ifdef THC_HAVE_CUFFT
  if (use_cufft()) return r2c_cufft(in, out, dims, scale);
#endif
  on_host(in, out, [&](const th::Tensor& i, const th::Tensor& o) {
    th::fft_r2c_stub[th::DeviceType::CPU](i, o, dims, scale);
  });
}
void c2r_kernel(const th::Tensor& in, const th::Tensor& out, const th::IntList& dims, double scale) {
#ifdef THC_HAVE_CUFFT
  if (use_cufft()) return c2r_cufft(in, out, dims, scale);
#endif
  on_host(in, out, [&](const th::Tensor& i, const th::Tensor& o) {
    th::fft_c2r_stub[th::DeviceType::CPU](i, o, dims, scale);
  });
}

}  // namespace

bool cufft_available() { return use_cufft(); }

PlanCacheInfo plan_cache_info(int device) {
#ifdef THC_HAVE_CUFFT
  DeviceCache& c = device_cache(device);
  std::lock_guard<std::mutex> lock(c.mutex);
  return {int64_t(c.lru.size()), c.max_size};
#else
  (void)device;
  return {0, 0};
#endif
}
void set_plan_cache_max_size(int device, int64_t max_size) {
  TH_CHECK(max_size >= 0, "cuFFT plan cache size must be non-negative, but got ", max_size);
#ifdef THC_HAVE_CUFFT
  DeviceCache& c = device_cache(device);
  std::lock_guard<std::mutex> lock(c.mutex);
  c.max_size = max_size;
  c.trim();
#else
  (void)device;
#endif
}
void clear_plan_cache(int device) {
#ifdef THC_HAVE_CUFFT
  DeviceCache& c = device_cache(device);
  std::lock_guard<std::mutex> lock(c.mutex);
  c.index.clear();
  c.lru.clear();
#else
  (void)device;
#endif
}

TH_REGISTER_KERNEL(th::fft_c2c_stub, CUDA, c2c_kernel);
TH_REGISTER_KERNEL(th::fft_r2c_stub, CUDA, r2c_kernel);
TH_REGISTER_KERNEL(th::fft_c2r_stub, CUDA, c2r_kernel);

}  // namespace thc
