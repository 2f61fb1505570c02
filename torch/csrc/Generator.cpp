// torch.Generator and the default generators (manual_seed, seed, initial_seed).
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
          [](const th::Generator& g) { return nb::make_tuple(g.impl()->seed, g.impl()->offset); },
          "The generator's state (seed, offset) for set_state.")
      .def(
          "set_state",
          [](th::Generator& g, nb::tuple state) {
            g.impl()->seed = nb::cast<uint64_t>(state[0]);
            g.impl()->offset = nb::cast<uint64_t>(state[1]);
          },
          "state"_a, "Restores a state from get_state.");
  m.def(
      "manual_seed", [](int64_t seed) { th::manual_seed(static_cast<uint64_t>(seed)); }, "seed"_a,
      "Seeds the default generators of every device.");
  m.def(
      "default_generator", [](nb::handle device) { return th::default_generator(device_arg(device)); },
      "device"_a = nb::none());
  m.def("_random_seed", &random_seed);
}

}  // namespace torch
