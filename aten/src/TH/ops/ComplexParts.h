#pragma once
// The complex-parts family: a complex tensor's real and imaginary views, its modulus and argument
// (abs, angle) and its conjugate; ops/ComplexParts.cpp, cpu/ComplexPartsKernels.cpp,
// THC/ComplexPartsKernels.cu.
#include "../Dispatch.h"
#include "../TensorIterator.h"

namespace th {

/// What complex_part_stub computes of each complex element.
enum class ComplexPart { Abs, Angle, Conj };

/// out = part(in) over the iterator; Abs and Angle write the real dtype of the complex input.
using complex_part_fn = void(TensorIterator&, ComplexPart);
TH_DECLARE_STUB(complex_part_fn, complex_part_stub);

}  // namespace th
