#include "CUDAHooks.h"

#include "Exception.h"

namespace th {
namespace {
const CUDAHooks default_hooks;
const CUDAHooks* current = &default_hooks;
}  // namespace

void CUDAHooks::synchronize(int) const {
  throw Error("Torch not compiled with CUDA enabled (configure with USE_CUDA=1 and run `invoke develop`)");
}

const CUDAHooks& cuda_hooks() { return *current; }

void set_cuda_hooks(const CUDAHooks* hooks) { current = hooks; }

}  // namespace th
