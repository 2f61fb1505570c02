#pragma once
// Errors are C++ exceptions; torch._C maps each class to the Python exception of the
// same name. Nothing in the libraries aborts the process.
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace th {

/// A generic failure, raised to Python as RuntimeError.
struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};
/// Raised to Python as IndexError.
struct IndexError : Error {
  using Error::Error;
};
/// Raised to Python as TypeError.
struct TypeError : Error {
  using Error::Error;
};
/// Raised to Python as ValueError.
struct ValueError : Error {
  using Error::Error;
};
/// Raised to Python as NotImplementedError (an op has no kernel for a device or dtype).
struct NotImplementedError : Error {
  using Error::Error;
};

namespace detail {
template <typename... Args>
std::string str(Args&&... args) {
  std::ostringstream ss;
  (ss << ... << std::forward<Args>(args));
  return ss.str();
}
}  // namespace detail

}  // namespace th

/// TH_CHECK(cond, msg...) throws th::Error with the streamed message when cond is false.
#define TH_CHECK(cond, ...) TH_CHECK_T(::th::Error, cond, __VA_ARGS__)
/// Like TH_CHECK, but throws the exception type given first.
#define TH_CHECK_T(type, cond, ...)                          \
  do {                                                       \
    if (!(cond)) throw type(::th::detail::str(__VA_ARGS__)); \
  } while (0)
