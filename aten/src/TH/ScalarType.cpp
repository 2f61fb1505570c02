#include "ScalarType.h"

namespace th {

size_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Bool: return 1;
    case ScalarType::Short:
    case ScalarType::UInt16:
    case ScalarType::Half:
    case ScalarType::BFloat16: return 2;
    case ScalarType::Int:
    case ScalarType::UInt32:
    case ScalarType::Float: return 4;
    case ScalarType::Long:
    case ScalarType::UInt64:
    case ScalarType::Double:
    case ScalarType::ComplexFloat: return 8;
    case ScalarType::ComplexDouble: return 16;
    default: throw Error("element_size: undefined dtype");
  }
}

const char* scalar_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "uint8";
    case ScalarType::Char: return "int8";
    case ScalarType::Short: return "int16";
    case ScalarType::Int: return "int32";
    case ScalarType::Long: return "int64";
    case ScalarType::Half: return "float16";
    case ScalarType::BFloat16: return "bfloat16";
    case ScalarType::Float: return "float32";
    case ScalarType::Double: return "float64";
    case ScalarType::Bool: return "bool";
    case ScalarType::ComplexFloat: return "complex64";
    case ScalarType::ComplexDouble: return "complex128";
    case ScalarType::UInt16: return "uint16";
    case ScalarType::UInt32: return "uint32";
    case ScalarType::UInt64: return "uint64";
    case ScalarType::Float8_e4m3fn: return "float8_e4m3fn";
    case ScalarType::Float8_e5m2: return "float8_e5m2";
    default: return "undefined";
  }
}

const char* scalar_type_meta_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "unsigned char";
    case ScalarType::Char: return "signed char";
    case ScalarType::Short: return "short int";
    case ScalarType::Int: return "int";
    case ScalarType::Long: return "long int";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Bool: return "bool";
    case ScalarType::ComplexFloat: return "c10::complex<float>";
    case ScalarType::ComplexDouble: return "c10::complex<double>";
    case ScalarType::UInt16: return "uint16_t";
    case ScalarType::UInt32: return "uint32_t";
    case ScalarType::UInt64: return "uint64_t";
    case ScalarType::Float8_e4m3fn: return "c10::Float8_e4m3fn";
    case ScalarType::Float8_e5m2: return "c10::Float8_e5m2";
    default: return "Undefined";
  }
}

const char* scalar_type_cpp_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::Bool: return "Bool";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    case ScalarType::UInt16: return "UInt16";
    case ScalarType::UInt32: return "UInt32";
    case ScalarType::UInt64: return "UInt64";
    case ScalarType::Float8_e4m3fn: return "Float8_e4m3fn";
    case ScalarType::Float8_e5m2: return "Float8_e5m2";
    default: return "Undefined";
  }
}

bool is_floating_point(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::Half ||
         t == ScalarType::BFloat16 || t == ScalarType::Float8_e4m3fn || t == ScalarType::Float8_e5m2;
}

bool is_integral(ScalarType t, bool include_bool) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64: return true;
    case ScalarType::Bool: return include_bool;
    default: return false;
  }
}

namespace {
// Rank inside each category; the lattice below is c10's promoteTypes restricted to our types.
int index_of(ScalarType t) {
  switch (t) {
    case ScalarType::Byte: return 0;
    case ScalarType::Char: return 1;
    case ScalarType::Short: return 2;
    case ScalarType::Int: return 3;
    case ScalarType::Long: return 4;
    case ScalarType::Float: return 5;
    case ScalarType::Double: return 6;
    case ScalarType::Bool: return 7;
    case ScalarType::Half: return 8;
    case ScalarType::BFloat16: return 9;
    case ScalarType::ComplexFloat: return 10;
    case ScalarType::ComplexDouble: return 11;
    default: throw Error("promote_types: undefined dtype");
  }
}
}  // namespace

ScalarType promote_types(ScalarType a, ScalarType b) {
  using S = ScalarType;
  if (a == b && a != S::Undefined) return a;  // a barebones dtype promotes with itself only
  // upstream's two refusals, in its words
  const auto is_float8 = [](S t) { return t == S::Float8_e4m3fn || t == S::Float8_e5m2; };
  TH_CHECK(!is_float8(a) && !is_float8(b),
           "Promotion for Float8 Types is not supported, attempted to promote ", scalar_type_cpp_name(a),
           " and ", scalar_type_cpp_name(b));
  TH_CHECK(!is_barebones(a) && !is_barebones(b),
           "Promotion for uint16, uint32, uint64 types is not supported, attempted to promote ",
           scalar_type_cpp_name(a), " and ", scalar_type_cpp_name(b));
  constexpr S u1 = S::Byte, i1 = S::Char, i2 = S::Short, i4 = S::Int, i8 = S::Long, f4 = S::Float,
              f8 = S::Double, b1 = S::Bool, f2 = S::Half, bf = S::BFloat16, c4 = S::ComplexFloat,
              c8 = S::ComplexDouble;
  static constexpr S table[12][12] = {
      /*        u1  i1  i2  i4  i8  f4  f8  b1  f2  bf  c4  c8 */
      /* u1 */ {u1, i2, i2, i4, i8, f4, f8, u1, f2, bf, c4, c8},
      /* i1 */ {i2, i1, i2, i4, i8, f4, f8, i1, f2, bf, c4, c8},
      /* i2 */ {i2, i2, i2, i4, i8, f4, f8, i2, f2, bf, c4, c8},
      /* i4 */ {i4, i4, i4, i4, i8, f4, f8, i4, f2, bf, c4, c8},
      /* i8 */ {i8, i8, i8, i8, i8, f4, f8, i8, f2, bf, c4, c8},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f8, f4, f4, f4, c4, c8},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, f8, f8, c8, c8},
      /* b1 */ {u1, i1, i2, i4, i8, f4, f8, b1, f2, bf, c4, c8},
      /* f2 */ {f2, f2, f2, f2, f2, f4, f8, f2, f2, f4, c4, c8},
      /* bf */ {bf, bf, bf, bf, bf, f4, f8, bf, f4, bf, c4, c8},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c8, c4, c4, c4, c4, c8},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8},
  };
  return table[index_of(a)][index_of(b)];
}

namespace {
ScalarType default_dtype = ScalarType::Float;
}

ScalarType get_default_dtype() { return default_dtype; }

void set_default_dtype(ScalarType t) {
  TH_CHECK_T(TypeError, is_floating_point(t) && !is_barebones(t),
             "only floating-point types are supported as the default type");
  default_dtype = t;
}

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

ScalarType to_complex_type(ScalarType t) {
  switch (t) {
    case ScalarType::Double:
    case ScalarType::ComplexDouble: return ScalarType::ComplexDouble;
    case ScalarType::Float:
    case ScalarType::Half:
    case ScalarType::BFloat16:
    case ScalarType::ComplexFloat: return ScalarType::ComplexFloat;
    default: throw TypeError(detail::str("Unknown Complex ScalarType for ", scalar_type_cpp_name(t)));
  }
}

ScalarType to_real_type(ScalarType t) {
  if (t == ScalarType::ComplexFloat) return ScalarType::Float;
  if (t == ScalarType::ComplexDouble) return ScalarType::Double;
  return t;
}

bool can_cast(ScalarType from, ScalarType to) {
  if (is_complex(from) && !is_complex(to)) return false;
  if (is_floating_point(from) && is_integral(to, /*include_bool=*/true)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

}  // namespace th
