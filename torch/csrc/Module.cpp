// torch._C: the extension module. C++ exceptions from the libraries become the Python
// exceptions of the same name; the op bindings come from the generated shards.
#include <TH/Exception.h>
#include <TH/LinAlgError.h>
#include <TH/MatmulPrecision.h>
#include <TH/OutOfMemoryError.h>
#include <TH/Parallel.h>
#include <TH/Warning.h>
#include <TH/cpu/VecKernels.h>
#include <torch/python_errors.h>

#include "Autocast.h"
#include "Autograd.h"
#include "bind.h"

namespace {
/// TH_WARN as a Python UserWarning, raised where the op was called; under `-W error` the warning's
/// exception propagates out of the op. The GIL is taken if the op released it.
void python_warning(const std::string& message) {
  const PyGILState_STATE state = PyGILState_Ensure();
  if (PyErr_WarnEx(PyExc_UserWarning, message.c_str(), 1) < 0) {
    nb::python_error error;  // fetched while the GIL is held
    PyGILState_Release(state);
    throw error;
  }
  PyGILState_Release(state);
}
}  // namespace

NB_MODULE(_C, m) {
  m.doc() = "torch._C: bindings of the TH/THNN/THC/THCUNN libraries";
  // Tensors hold their autograd state (Python objects) from C++, like PyTorch's PyObject slot, so
  // tensors still alive at interpreter exit can outlive this module's teardown; that is not a leak.
  nb::set_leak_warnings(false);
  nb::register_exception_translator(torch::translate_th_errors);
  th::set_warning_handler(&python_warning);
  // torch.linalg.LinAlgError (a RuntimeError); registered last, so tried before the generic th::Error
  nb::exception<th::LinAlgError>(m, "_LinAlgError", PyExc_RuntimeError);
  // torch.cuda.OutOfMemoryError (a RuntimeError), likewise
  nb::exception<th::OutOfMemoryError>(m, "_OutOfMemoryError", PyExc_RuntimeError);
  torch::bind_dtypes(m);
  torch::bind_memory_formats(m);
  torch::bind_device(m);
  torch::bind_generator(m);
  nb::handle tensor = torch::bind_tensor(m);
  torch::bind_build_info(m);
  torch::bind_c_api(m, tensor);
  torch::bind_cuda(m);
  torch::bind_indexing(tensor);
  torch::bind_operators(m, tensor);
  torch::autograd::bind_autograd(m, tensor);
  torch::autocast::bind_autocast(m);
  m.def("get_num_threads", &th::get_num_threads, "Threads used by CPU ops.");
  m.def("set_num_threads", &th::set_num_threads, "n"_a, "Sets the threads used by CPU ops.");
  m.def("_cpu_capability", &th::cpu::vec_capability, "The vector ISA the CPU kernels run with.");
  m.def(
      "_get_float32_matmul_precision", [] { return static_cast<int>(th::float32_matmul_precision()); },
      "0 (highest), 1 (high) or 2 (medium): what torch.set_float32_matmul_precision set.");
  m.def(
      "_set_float32_matmul_precision",
      [](int p) {
        TH_CHECK(p >= 0 && p <= 2, "float32 matmul precision must be 0, 1 or 2, got ", p);
        th::set_float32_matmul_precision(static_cast<th::MatmulPrecision>(p));
      },
      "p"_a, "Sets the float32 matmul precision (0 highest, 1 high, 2 medium).");
  torch::bindings::register_all(m, tensor);
}
