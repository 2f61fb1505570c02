#pragma once
// The error of a factorization or solve that fails on its input (singular, not positive-definite, no
// convergence): torch._C raises it as torch.linalg.LinAlgError (a RuntimeError), as PyTorch does. Its own
// header, so that torch._C can name it without depending on the linear-algebra family.
#include "Exception.h"

namespace th {

/// Raised to Python as torch.linalg.LinAlgError.
struct LinAlgError : Error {
  using Error::Error;
};

}  // namespace th
