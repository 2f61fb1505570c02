#include "Allocator.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "Exception.h"

namespace th {
namespace {

// Blocks from 32 MiB on are 2 MiB aligned and asked to be backed by transparent huge pages: glibc
// maps and unmaps blocks that big on every call, and a fresh 40 MB output then costs ~20 page faults
// instead of ~10000. Smaller blocks stay plain: glibc's heap reuses them after the first free (its
// mmap threshold adapts up to 32 MiB), so a 4 MB matmul result costs no page fault at all, where a
// 2 MiB-aligned request would be mapped (and its huge pages zeroed by the kernel) on every call.
constexpr size_t kHugePage = size_t(2) << 20, kHugeFrom = size_t(32) << 20;

// 64-byte alignment: full cache lines and AVX-512 friendly. Blocks below 4 KiB come from plain malloc
// (16-byte aligned, which every kernel's loads take): glibc's aligned_alloc splits a larger chunk and frees
// the rest on every call (~3,000 instructions, a third of a small `a + b`), where malloc takes a cached
// chunk.
constexpr size_t kAlignFrom = 4096;

struct CPUAllocator final : Allocator {
  DataPtr allocate(size_t nbytes, Device) override {
    if (nbytes > 0 && nbytes < kAlignFrom) {
      void* p = std::malloc(nbytes);
      TH_CHECK(p, "DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes, " bytes.");
      return DataPtr(p, &std::free);
    }
    const size_t align = nbytes >= kHugeFrom ? kHugePage : 64;
    size_t rounded = ((nbytes + align - 1) / align) * align;
    void* p = rounded ? std::aligned_alloc(align, rounded) : nullptr;
#ifdef MADV_HUGEPAGE
    if (p && align == kHugePage) madvise(p, rounded, MADV_HUGEPAGE);
#endif
    TH_CHECK(p || rounded == 0, "DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes,
             " bytes.");
    return DataPtr(p, &std::free);
  }
  void copy(void* dst, Device, const void* src, Device, size_t nbytes, bool) override {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
};

// glibc's heap keeps blocks below 32 MiB (its largest mmap threshold) for reuse, and gives memory back to the
// system only when its free top exceeds 256 MiB: a training step frees and allocates the same few large
// buffers over and over, and with glibc's adaptive defaults each of them came back as fresh pages (a
// cross_entropy step over 4096x1000 took 12,000 page faults and 3x its time). Blocks from 32 MiB on keep
// their own mapping (huge pages, above).
[[maybe_unused]] const bool heap_tuned = [] {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, int(kHugeFrom));
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
  return true;
}();

CPUAllocator cpu_allocator;
Allocator* allocators[kNumDeviceTypes] = {&cpu_allocator, nullptr};

}  // namespace

Allocator& get_allocator(DeviceType t) {
  Allocator* a = allocators[static_cast<int>(t)];
  TH_CHECK(a,
           "Torch not compiled with CUDA enabled (configure with USE_CUDA=1 and run `invoke "
           "develop`)");
  return *a;
}

void set_allocator(DeviceType t, Allocator* allocator) { allocators[static_cast<int>(t)] = allocator; }

bool has_allocator(DeviceType t) { return allocators[static_cast<int>(t)] != nullptr; }

}  // namespace th
