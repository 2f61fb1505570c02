#include "Storage.h"

namespace th {

StorageImpl::StorageImpl(size_t nbytes, Device device)
    : owned_(get_allocator(device.type).allocate(nbytes, device)),
      data_(owned_.get()),
      nbytes_(nbytes),
      device_(device) {}

StorageImpl::StorageImpl(size_t nbytes, Device device, Allocator& allocator)
    : owned_(allocator.allocate(nbytes, device)), data_(owned_.get()), nbytes_(nbytes), device_(device) {}

StorageImpl::StorageImpl(void* data, size_t nbytes, Device device, std::shared_ptr<void> owner)
    : owned_(nullptr, [](void*) {}),
      external_(std::move(owner)),
      data_(data),
      nbytes_(nbytes),
      device_(device) {}

}  // namespace th
