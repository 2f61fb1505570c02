#pragma once
// Element types, their properties, and PyTorch's type-promotion lattice.
#include <cstdint>
#include <string>

#include "Complex.h"
#include "Exception.h"
#include "Float8.h"
#include "Half.h"

namespace th {

// The numbering follows c10::ScalarType for the types we have.
enum class ScalarType : int8_t {
  Byte = 0,            // uint8
  Char = 1,            // int8
  Short = 2,           // int16
  Int = 3,             // int32
  Long = 4,            // int64
  Half = 5,            // float16
  Float = 6,           // float32
  Double = 7,          // float64
  ComplexFloat = 9,    // complex64
  ComplexDouble = 10,  // complex128
  Bool = 11,
  BFloat16 = 15,
  Float8_e5m2 = 23,    // float8_e5m2
  Float8_e4m3fn = 24,  // float8_e4m3fn
  UInt16 = 27,         // uint16
  UInt32 = 28,         // uint32
  UInt64 = 29,         // uint64
  Undefined = -1,
};

constexpr int kNumScalarTypes = 30;

/// The "barebones" dtypes (upstream's name for uint16/32/64; float8 alike): made, copied, indexed and
/// converted like every dtype, but no arithmetic kernel takes them (its dispatch raises "not implemented
/// for 'UInt16'", as upstream's), and they promote with no other dtype.
inline bool is_barebones(ScalarType t) {
  return t == ScalarType::UInt16 || t == ScalarType::UInt32 || t == ScalarType::UInt64 ||
         t == ScalarType::Float8_e5m2 || t == ScalarType::Float8_e4m3fn;
}

/// Size in bytes of one element of `t`.
size_t element_size(ScalarType t);
/// PyTorch's name without the "torch." prefix, e.g. "float32".
const char* scalar_type_name(ScalarType t);
/// c10's C++ name ("Float", "Long"), which PyTorch's messages use.
const char* scalar_type_cpp_name(ScalarType t);
/// c10's C++ name of t's element type, as upstream's dtype messages print it ("float", "long int").
const char* scalar_type_meta_name(ScalarType t);
/// True for the floating types (float16, bfloat16, float32, float64, the float8s).
bool is_floating_point(ScalarType t);
/// True for complex64 and complex128.
inline bool is_complex(ScalarType t) {
  return t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
/// The complex type with `t`'s precision (complex64 for float32 and the 16-bit floats, complex128 for
/// float64); a complex type is its own.
ScalarType to_complex_type(ScalarType t);
/// The real type of a complex type's parts (float32 for complex64); other types are their own.
ScalarType to_real_type(ScalarType t);
/// True for float16 and bfloat16 (c10's isReducedFloatingType): stored in 16 bits, computed in float32.
inline bool is_reduced_floating_point(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16;
}
/// True for bool and the integer types.
bool is_integral(ScalarType t, bool include_bool);
/// The smallest type both `a` and `b` can be represented in (torch.promote_types).
ScalarType promote_types(ScalarType a, ScalarType b);
/// promote_types treating Undefined as "no type yet".
ScalarType promote_skip_undefined(ScalarType a, ScalarType b);
/// Whether a result of type `from` may be written into an output of type `to`
/// (torch.can_cast: no float->int, no numeric->bool).
bool can_cast(ScalarType from, ScalarType to);

/// The dtype of floating-point tensors made without one (torch.get_default_dtype).
ScalarType get_default_dtype();
/// Sets it; only floating types are allowed, as in PyTorch.
void set_default_dtype(ScalarType t);

/// Maps a C++ element type to its ScalarType.
template <typename T>
struct scalar_type_of;
#define TH_SCALAR_TYPE_OF(ctype, name)                    \
  template <>                                             \
  struct scalar_type_of<ctype> {                          \
    static constexpr ScalarType value = ScalarType::name; \
  };
TH_SCALAR_TYPE_OF(uint8_t, Byte)
TH_SCALAR_TYPE_OF(int8_t, Char)
TH_SCALAR_TYPE_OF(int16_t, Short)
TH_SCALAR_TYPE_OF(int32_t, Int)
TH_SCALAR_TYPE_OF(int64_t, Long)
TH_SCALAR_TYPE_OF(float, Float)
TH_SCALAR_TYPE_OF(double, Double)
TH_SCALAR_TYPE_OF(Half, Half)
TH_SCALAR_TYPE_OF(BFloat16, BFloat16)
TH_SCALAR_TYPE_OF(bool, Bool)
TH_SCALAR_TYPE_OF(complex<float>, ComplexFloat)
TH_SCALAR_TYPE_OF(complex<double>, ComplexDouble)
TH_SCALAR_TYPE_OF(uint16_t, UInt16)
TH_SCALAR_TYPE_OF(uint32_t, UInt32)
TH_SCALAR_TYPE_OF(uint64_t, UInt64)
TH_SCALAR_TYPE_OF(Float8_e4m3fn, Float8_e4m3fn)
TH_SCALAR_TYPE_OF(Float8_e5m2, Float8_e5m2)
#undef TH_SCALAR_TYPE_OF

}  // namespace th

// TH_DISPATCH_ALL_TYPES(type, "op", [&] { ... scalar_t ... }) runs the lambda with
// scalar_t bound to the C++ type of `type`; unsupported types raise upstream's NotImplementedError
// ("\"op\" not implemented for 'Bool'", c10's type name).
#define TH_PRIVATE_CASE(enum_name, ctype, ...) \
  case ::th::ScalarType::enum_name: {          \
    using scalar_t = ctype;                    \
    return __VA_ARGS__();                      \
  }
// The floating cases include the 16-bit floats: their kernels load and store Half/BFloat16
// and compute in float (opmath_t, see Half.h and the device loops).
#define TH_PRIVATE_FLOATING_CASES(...)           \
  TH_PRIVATE_CASE(Float, float, __VA_ARGS__)     \
  TH_PRIVATE_CASE(Double, double, __VA_ARGS__)   \
  TH_PRIVATE_CASE(Half, ::th::Half, __VA_ARGS__) \
  TH_PRIVATE_CASE(BFloat16, ::th::BFloat16, __VA_ARGS__)
#define TH_PRIVATE_COMPLEX_CASES(...)                              \
  TH_PRIVATE_CASE(ComplexFloat, ::th::complex<float>, __VA_ARGS__) \
  TH_PRIVATE_CASE(ComplexDouble, ::th::complex<double>, __VA_ARGS__)
#define TH_PRIVATE_INTEGRAL_CASES(...)         \
  TH_PRIVATE_CASE(Byte, uint8_t, __VA_ARGS__)  \
  TH_PRIVATE_CASE(Char, int8_t, __VA_ARGS__)   \
  TH_PRIVATE_CASE(Short, int16_t, __VA_ARGS__) \
  TH_PRIVATE_CASE(Int, int32_t, __VA_ARGS__)   \
  TH_PRIVATE_CASE(Long, int64_t, __VA_ARGS__)
#define TH_PRIVATE_BAREBONES_CASES(...)                            \
  TH_PRIVATE_CASE(UInt16, uint16_t, __VA_ARGS__)                   \
  TH_PRIVATE_CASE(UInt32, uint32_t, __VA_ARGS__)                   \
  TH_PRIVATE_CASE(UInt64, uint64_t, __VA_ARGS__)                   \
  TH_PRIVATE_CASE(Float8_e4m3fn, ::th::Float8_e4m3fn, __VA_ARGS__) \
  TH_PRIVATE_CASE(Float8_e5m2, ::th::Float8_e5m2, __VA_ARGS__)
#define TH_PRIVATE_DISPATCH(type, name, cases)                                                            \
  [&] {                                                                                                   \
    const ::th::ScalarType _st = (type);                                                                  \
    switch (_st) {                                                                                        \
      cases default : throw ::th::NotImplementedError(::th::detail::str(                                  \
                          "\"", name, "\" not implemented for '", ::th::scalar_type_cpp_name(_st), "'")); \
    }                                                                                                     \
  }()
#define TH_DISPATCH_ALL_TYPES(type, name, ...)                                                      \
  TH_PRIVATE_DISPATCH(type, name,                                                                   \
                      TH_PRIVATE_FLOATING_CASES(__VA_ARGS__) TH_PRIVATE_INTEGRAL_CASES(__VA_ARGS__) \
                          TH_PRIVATE_CASE(Bool, bool, __VA_ARGS__))
#define TH_DISPATCH_ALL_TYPES_AND_COMPLEX(type, name, ...)                                          \
  TH_PRIVATE_DISPATCH(type, name,                                                                   \
                      TH_PRIVATE_FLOATING_CASES(__VA_ARGS__) TH_PRIVATE_INTEGRAL_CASES(__VA_ARGS__) \
                          TH_PRIVATE_CASE(Bool, bool, __VA_ARGS__) TH_PRIVATE_COMPLEX_CASES(__VA_ARGS__))
/// Every dtype, the barebones ones too: the kernels that move and convert values (copy_, fill_, take, put).
#define TH_DISPATCH_ALL_TYPES_AND_BAREBONES(type, name, ...)                                             \
  TH_PRIVATE_DISPATCH(type, name,                                                                        \
                      TH_PRIVATE_FLOATING_CASES(__VA_ARGS__) TH_PRIVATE_INTEGRAL_CASES(__VA_ARGS__)      \
                          TH_PRIVATE_CASE(Bool, bool, __VA_ARGS__) TH_PRIVATE_COMPLEX_CASES(__VA_ARGS__) \
                              TH_PRIVATE_BAREBONES_CASES(__VA_ARGS__))
#define TH_DISPATCH_COMPLEX_TYPES(type, name, ...) \
  TH_PRIVATE_DISPATCH(type, name, TH_PRIVATE_COMPLEX_CASES(__VA_ARGS__))
#define TH_DISPATCH_FLOATING_AND_COMPLEX_TYPES(type, name, ...) \
  TH_PRIVATE_DISPATCH(type, name,                               \
                      TH_PRIVATE_FLOATING_CASES(__VA_ARGS__) TH_PRIVATE_COMPLEX_CASES(__VA_ARGS__))
#define TH_DISPATCH_NUMERIC_TYPES(type, name, ...) \
  TH_PRIVATE_DISPATCH(type, name,                  \
                      TH_PRIVATE_FLOATING_CASES(__VA_ARGS__) TH_PRIVATE_INTEGRAL_CASES(__VA_ARGS__))
#define TH_DISPATCH_INTEGRAL_TYPES(type, name, ...) \
  TH_PRIVATE_DISPATCH(type, name,                   \
                      TH_PRIVATE_INTEGRAL_CASES(__VA_ARGS__) TH_PRIVATE_CASE(Bool, bool, __VA_ARGS__))
#define TH_DISPATCH_FLOATING_TYPES(type, name, ...) \
  TH_PRIVATE_DISPATCH(type, name, TH_PRIVATE_FLOATING_CASES(__VA_ARGS__))
