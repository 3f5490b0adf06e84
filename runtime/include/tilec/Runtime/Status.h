//===- Status.h - Errors as values for the runtime API ----------*- C++ -*-===//
//
// The runtime reports failure by returning it, never by throwing across its
// API or aborting: a function that can fail returns `Status` (success or an
// Error) or `Expected<T>` (a T or an Error). Both convert to true on success,
// and both are [[nodiscard]] so that a failure cannot be dropped silently.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_STATUS_H
#define TILEC_RUNTIME_STATUS_H

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tilec {

/// A failure: a message for a human that says what was being done and what
/// went wrong, and, when a driver call failed, the driver's status code
/// (an OpenCL cl_int), so that callers can react to particular failures
/// (an autotuner retrying with a smaller work-group, say).
class Error {
public:
  explicit Error(std::string message, int driverCode = 0)
      : text(std::move(message)), code(driverCode) {}

  const std::string &message() const { return text; }
  /// The driver's status code, or 0 when the failure was found before or
  /// without calling the driver.
  int driverCode() const { return code; }

private:
  std::string text;
  int code;
};

/// Success, or an error of type E. The runtime's errors are Error; the
/// JIT's carry diagnostics too (tilec/JIT/Error.h) and reuse these templates.
template <class E> class [[nodiscard]] BasicStatus {
public:
  static BasicStatus success() { return BasicStatus(); }
  BasicStatus(E error) : failure(std::move(error)) {}

  bool ok() const { return !failure; }
  explicit operator bool() const { return ok(); }
  /// The failure; only valid when !ok().
  const E &error() const {
    assert(failure && "error() of a successful Status");
    return *failure;
  }

private:
  BasicStatus() = default;
  std::optional<E> failure;
};

/// A value of type T, or the error of type E that prevented computing it.
template <class T, class E> class [[nodiscard]] BasicExpected {
public:
  BasicExpected(T value) : storage(std::in_place_index<0>, std::move(value)) {}
  BasicExpected(E error) : storage(std::in_place_index<1>, std::move(error)) {}

  bool ok() const { return storage.index() == 0; }
  explicit operator bool() const { return ok(); }

  /// The value; only valid when ok().
  T &operator*() {
    assert(ok() && "value of a failed Expected");
    return std::get<0>(storage);
  }
  const T &operator*() const {
    assert(ok() && "value of a failed Expected");
    return std::get<0>(storage);
  }
  T *operator->() { return &**this; }
  const T *operator->() const { return &**this; }

  /// The failure; only valid when !ok().
  const E &error() const {
    assert(!ok() && "error() of a successful Expected");
    return std::get<1>(storage);
  }
  /// The failure as a status, to pass it on from a function returning one.
  BasicStatus<E> status() const {
    return ok() ? BasicStatus<E>::success() : error();
  }

private:
  std::variant<T, E> storage;
};

/// Success, or an Error.
using Status = BasicStatus<Error>;
/// A value of type T, or the Error that prevented computing it.
template <class T> using Expected = BasicExpected<T, Error>;

} // namespace tilec

#endif // TILEC_RUNTIME_STATUS_H
