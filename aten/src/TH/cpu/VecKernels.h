#pragma once
// Explicitly vectorized float kernels, compiled once per CPU capability (cpu/VecImpl.cpp: SSE2,
// AVX2+FMA, AVX-512) and picked at run time, like PyTorch's CPU_CAPABILITY builds. Plain functions
// and C types only here: the variant objects share no inline or template code with the rest of TH,
// so the linker can never mix an AVX-512 copy of a function into the baseline path.
#include <cstdint>

namespace th::cpu {

/// GeluErf: x / 2 * (1 + erf(x / sqrt(2))) in one pass, the operations of THNN/math/Activation.h's
/// gelu_erf(x, erf(gelu_erf_arg(x))) in their order (the same bits as composing them).
enum class VecUnary : int { Exp, Tanh, Sigmoid, Erf, GeluErf };
enum class VecReduce : int { Sum, Max, Min };
enum class VecConvert : int { HalfToFloat, FloatToHalf, BFloat16ToFloat, FloatToBFloat16 };
/// Add is a + alpha * b with alpha 1 or -1 (so the product is exact: sub is add with alpha -1).
enum class VecBinary : int { Add, Mul, Div };
/// The 16-bit float type a fused kernel reads and writes.
enum class Vec16 : int { Half, BFloat16 };
/// The complex type (real and imaginary parts interleaved) a complex kernel reads and writes.
enum class VecComplex : int { ComplexFloat, ComplexDouble };

/// out[i] = op(in[i]) for i < n (contiguous float).
using vec_unary_fn = void (*)(VecUnary op, const float* in, float* out, int64_t n);
/// The reduction of in[0..n) (a float sum accumulates in double; max/min propagate NaN).
using vec_reduce_fn = double (*)(VecReduce op, const float* in, int64_t n);

/// dst[i] = src[i] for i < n, between float and a 16-bit float (its bits), rounding to nearest-even.
using vec_convert_fn = void (*)(VecConvert op, const void* src, void* dst, int64_t n);

/// out[i] = op(a[i], b[i]) for i < n over contiguous 16-bit values: each widened to float, computed there and
/// rounded to nearest-even once, W lanes at a time (the scalar loop's results, bit for bit). A null a (b)
/// reads the float a_value (b_value) at every i: a broadcast operand, or a Python number read as passed.
using vec_binary16_fn = void (*)(VecBinary op, Vec16 type, const void* a, float a_value, const void* b,
                                 float b_value, float alpha, void* out, int64_t n);
/// The sum of n contiguous 16-bit values, read as floats: vec_reduce_fn's Sum of each run of 1024 of them
/// (float lanes), the runs added in double, the same bits as widening the runs first and summing those.
using vec_sum16_fn = double (*)(Vec16 type, const void* in, int64_t n);
/// out[i] = a[i] * b[i] over n contiguous complex values: (ar br - ai bi) + (ar bi + ai br) i in each pair of
/// lanes, th::complex's operations in its order (its bits); a_one (b_one): a (b) is one value read at every
/// i.
using vec_cmul_fn = void (*)(VecComplex type, const void* a, bool a_one, const void* b, bool b_one, void* out,
                             int64_t n);

/// Called by each variant at load time with its capability level (0 SSE2, 1 AVX2, 2 AVX-512).
void register_vec_kernels(int level, vec_unary_fn unary, vec_reduce_fn reduce, vec_convert_fn convert,
                          vec_binary16_fn binary16, vec_sum16_fn sum16, vec_cmul_fn cmul);
/// The best registered kernels this CPU can run (TH_CPU_CAPABILITY=default|avx2|avx512 caps it).
vec_unary_fn vec_unary();
vec_reduce_fn vec_reduce();
/// The conversion instructions (F16C, AVX-512), or nullptr without them: use the scalar conversions.
vec_convert_fn vec_convert();
/// The fused 16-bit kernels (AVX2+F16C, AVX-512), or nullptr without the conversion instructions.
vec_binary16_fn vec_binary16();
vec_sum16_fn vec_sum16();
/// The vectorized complex product (every capability).
vec_cmul_fn vec_cmul();
/// "DEFAULT", "AVX2" or "AVX512": what vec_unary/vec_reduce run on this machine.
const char* vec_capability();

}  // namespace th::cpu
