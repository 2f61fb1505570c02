#pragma once
// A device allocation that fails even after the allocator gave its cache back: torch._C raises it as
// torch.cuda.OutOfMemoryError (a RuntimeError), as PyTorch does. Its own header, so that torch._C can
// name it without depending on the CUDA backend.
#include "Exception.h"

namespace th {

/// Raised to Python as torch.cuda.OutOfMemoryError.
struct OutOfMemoryError : Error {
  using Error::Error;
};

}  // namespace th
