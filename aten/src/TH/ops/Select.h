#pragma once
// The select family's kernel (where: each element from one of two inputs): ops/Select.cpp,
// cpu/SelectKernels.cpp, THC/SelectKernels.cu.
#include "../Dispatch.h"
#include "../TensorIterator.h"

namespace th {

/// out = cond ? a : b over an iterator whose inputs (cond, a, b) share the computation dtype.
using where_fn = void(TensorIterator&);
TH_DECLARE_STUB(where_fn, where_stub);

}  // namespace th
