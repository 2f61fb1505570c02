// torch.Generator and the default generators (manual_seed, seed, initial_seed).
#include <cstring>
#include <random>

#include "bind.h"

namespace torch {

namespace {
th::Device device_arg(nb::handle h) {
  if (h.is_none()) return th::Device();
  if (nb::isinstance<th::Device>(h)) return nb::cast<th::Device>(h);
  return th::Device(nb::cast<std::string>(h));
}

uint64_t random_seed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}
}  // namespace

void bind_generator(nb::module_& m) {
  nb::class_<th::Generator>(m, "Generator", "A random number generator (a Philox seed and counter).")
      .def(
          "__init__",
          [](th::Generator* self, nb::handle device) {
            th::Device d = device_arg(device);
            if (d.is_cuda() && d.index < 0) d.index = 0;
            new (self) th::Generator(th::Generator::create(d));
          },
          "device"_a = nb::none())
      .def(
          "manual_seed",
          [](nb::handle_t<th::Generator> self, int64_t seed) {
            nb::cast<th::Generator&>(self).set_seed(static_cast<uint64_t>(seed));
            return nb::borrow(self);
          },
          "seed"_a, "Seeds the generator (and restarts its stream); returns it.")
      .def(
          "seed",
          [](th::Generator& g) {
            uint64_t s = random_seed() & 0x7FFFFFFFFFFFFFFFull;
            g.set_seed(s);
            return s;
          },
          "Seeds the generator from a non-deterministic source; returns the seed.")
      .def("initial_seed", &th::Generator::seed, "The seed the generator was last seeded with.")
      .def_prop_ro("device", &th::Generator::device)
      .def(
          "get_state",
          [](const th::Generator& g) {
            // upstream's Philox state layout (its CUDA generators'): 16 bytes, the seed then the offset
            th::Tensor state = th::empty_tensor({16}, th::ScalarType::Byte, th::Device());
            uint64_t words[2] = {g.impl()->seed, g.impl()->offset};
            std::memcpy(state.data_ptr(), words, sizeof(words));
            return state;
          },
          "The generator's state, a 16-byte torch.uint8 tensor (seed, offset), for set_state.")
      .def(
          "set_state",
          [](th::Generator& g, nb::handle new_state) {
            if (!nb::isinstance<th::Tensor>(new_state))
              throw nb::type_error(("expected a torch.ByteTensor, but got " +
                                    std::string(nb::type_name(new_state.type()).c_str()))
                                       .c_str());
            const th::Tensor& state = nb::cast<const th::Tensor&>(new_state);
            if (state.dtype() != th::ScalarType::Byte)
              throw nb::type_error("RNG state must be a torch.ByteTensor");
            if (!state.device().is_cpu()) throw th::Error("RNG state must be a CPU tensor");
            if (state.numel() != 16)
              throw th::Error(
                  "Expected a PhiloxGeneratorState of size 16 but found the input RNG state size to be " +
                  std::to_string(state.numel()));
            uint8_t bytes[16];
            for (int64_t i = 0; i < 16; ++i)
              bytes[i] = static_cast<uint8_t>(state.data_ptr()[i * state.stride(0)]);
            uint64_t words[2];
            std::memcpy(words, bytes, sizeof(words));
            g.impl()->seed = words[0];
            g.impl()->offset = words[1];
            return nb::none();
          },
          "new_state"_a, "Restores a state from get_state.");
  m.def(
      "manual_seed", [](int64_t seed) { th::manual_seed(static_cast<uint64_t>(seed)); }, "seed"_a,
      "Seeds the default generators of every device.");
  m.def(
      "default_generator", [](nb::handle device) { return th::default_generator(device_arg(device)); },
      "device"_a = nb::none());
  m.def("_random_seed", &random_seed);
}

}  // namespace torch
