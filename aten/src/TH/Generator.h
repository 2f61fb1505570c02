#pragma once
// Random number generators: a seed and a counter offset (Philox, math/Philox.h). Each random op
// takes one element per counter from the offset on and advances it, so a seeded generator gives
// the same stream on every run, thread count and layout.
#include <cstdint>
#include <memory>

#include "Device.h"

namespace th {

struct GeneratorImpl {
  uint64_t seed = 67280421310721ull;
  uint64_t offset = 0;
  Device device;
};

/// A refcounted handle to a generator (torch.Generator).
class Generator {
 public:
  Generator() = default;
  explicit Generator(std::shared_ptr<GeneratorImpl> impl) : impl_(std::move(impl)) {}
  /// A new generator for `device` with the default seed.
  static Generator create(Device device);

  GeneratorImpl* impl() const { return impl_.get(); }
  bool defined() const { return impl_ != nullptr; }
  uint64_t seed() const { return impl_->seed; }
  void set_seed(uint64_t seed) {
    impl_->seed = seed;
    impl_->offset = 0;
  }
  Device device() const { return impl_->device; }
  /// Reserves `n` counters; returns the first. Atomic: ops on several threads (the GIL is
  /// released around long kernels) draw disjoint counters from one generator.
  uint64_t advance(uint64_t n) { return __atomic_fetch_add(&impl_->offset, n, __ATOMIC_RELAXED); }

 private:
  std::shared_ptr<GeneratorImpl> impl_;
};

/// The default generator of a device (torch.manual_seed seeds all of them).
Generator default_generator(Device device);
/// Seeds the default generators of the CPU and of every CUDA device used so far.
void manual_seed(uint64_t seed);

}  // namespace th
