#include "VecKernels.h"

#include <cstdlib>
#include <cstring>

namespace th::cpu {
namespace {

struct Registry {
  int level = -1;
  vec_unary_fn unary = nullptr;
  vec_reduce_fn reduce = nullptr;
  vec_convert_fn convert = nullptr;
  vec_binary16_fn binary16 = nullptr;
  vec_sum16_fn sum16 = nullptr;
  vec_cmul_fn cmul = nullptr;
};

Registry& registry() {
  static Registry r;
  return r;
}

int cpu_level() {
  static const int level = [] {
    int l = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"))
      l = 1;
    if (l == 1 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) l = 2;
#endif
    if (const char* cap = std::getenv("TH_CPU_CAPABILITY")) {  // a cap, for testing the other paths
      if (!std::strcmp(cap, "default")) l = 0;
      if (!std::strcmp(cap, "avx2") && l > 1) l = 1;
    }
    return l;
  }();
  return level;
}

}  // namespace

void register_vec_kernels(int level, vec_unary_fn unary, vec_reduce_fn reduce, vec_convert_fn convert,
                          vec_binary16_fn binary16, vec_sum16_fn sum16, vec_cmul_fn cmul) {
  Registry& r = registry();
  if (level > cpu_level() || level <= r.level) return;
  r.level = level;
  r.unary = unary;
  r.reduce = reduce;
  r.convert = convert;
  r.binary16 = binary16;
  r.sum16 = sum16;
  r.cmul = cmul;
}

vec_unary_fn vec_unary() { return registry().unary; }
vec_reduce_fn vec_reduce() { return registry().reduce; }
vec_convert_fn vec_convert() { return registry().convert; }
vec_binary16_fn vec_binary16() { return registry().binary16; }
vec_sum16_fn vec_sum16() { return registry().sum16; }
vec_cmul_fn vec_cmul() { return registry().cmul; }

const char* vec_capability() {
  switch (registry().level) {
    case 2: return "AVX512";
    case 1: return "AVX2";
    default: return "DEFAULT";
  }
}

}  // namespace th::cpu
