#pragma once
// The copy family's kernel (copy_ between any two dtypes): ops/Copy.cpp, cpu/CopyKernels.cpp,
// THC/CopyKernels.cu.
#include "../Dispatch.h"
#include "../TensorIterator.h"

namespace th {

/// The iterator's output = its input, converted to the output's dtype.
using copy_fn = void(TensorIterator&);
TH_DECLARE_STUB(copy_fn, copy_stub);

}  // namespace th
