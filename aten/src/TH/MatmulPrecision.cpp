#include "MatmulPrecision.h"

#include <atomic>

namespace th {
namespace {
std::atomic<MatmulPrecision> precision{MatmulPrecision::Highest};
}  // namespace

MatmulPrecision float32_matmul_precision() { return precision.load(std::memory_order_relaxed); }

void set_float32_matmul_precision(MatmulPrecision p) { precision.store(p, std::memory_order_relaxed); }

}  // namespace th
