#include "Generator.h"

#include <map>
#include <mutex>

namespace th {

namespace {
std::mutex mutex;
bool seeded = false;  // manual_seed was called: CUDA generators created later take its seed
uint64_t seed_value = 0;
std::map<int, Generator>& cuda_generators() {
  static auto* gens = new std::map<int, Generator>();
  return *gens;
}
}  // namespace

Generator Generator::create(Device device) {
  auto impl = std::make_shared<GeneratorImpl>();
  impl->device = device;
  return Generator(std::move(impl));
}

Generator default_generator(Device device) {
  if (device.is_cpu()) {
    static Generator cpu = Generator::create(Device());
    return cpu;
  }
  std::lock_guard<std::mutex> lock(mutex);
  int index = device.index < 0 ? 0 : device.index;
  auto& gens = cuda_generators();
  auto it = gens.find(index);
  if (it == gens.end()) {
    it = gens.emplace(index, Generator::create(Device(DeviceType::CUDA, index))).first;
    if (seeded) it->second.set_seed(seed_value);
  }
  return it->second;
}

void manual_seed(uint64_t seed) {
  default_generator(Device()).set_seed(seed);
  std::lock_guard<std::mutex> lock(mutex);
  seeded = true;
  seed_value = seed;
  for (auto& [index, gen] : cuda_generators()) gen.set_seed(seed);
}

}  // namespace th
