//===- Status.h - Errors as values for the runtime and the JIT --*- C++ -*-===//
//
// The runtime and the JIT report failure by returning it, never by throwing
// across their APIs or aborting: a function that can fail returns `Status`
// (success or an Error) or `Expected<T>` (a T or an Error). Both convert to
// true on success, and both are [[nodiscard]] so that a failure cannot be
// dropped silently.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_STATUS_H
#define TILEC_RUNTIME_STATUS_H

#include "tilec/Runtime/Error.h"

#include <cassert>
#include <optional>
#include <utility>
#include <variant>

namespace tilec {

/// Success, or an Error.
class [[nodiscard]] Status {
public:
  static Status success() { return Status(); }
  Status(Error error) : failure(std::move(error)) {}

  bool ok() const { return !failure; }
  explicit operator bool() const { return ok(); }
  /// The failure; only valid when !ok().
  const Error &error() const {
    assert(failure && "error() of a successful Status");
    return *failure;
  }

private:
  Status() = default;
  std::optional<Error> failure;
};

/// A value of type T, or the Error that prevented computing it.
template <class T> class [[nodiscard]] Expected {
public:
  Expected(T value) : storage(std::in_place_index<0>, std::move(value)) {}
  Expected(Error error) : storage(std::in_place_index<1>, std::move(error)) {}

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
  const Error &error() const {
    assert(!ok() && "error() of a successful Expected");
    return std::get<1>(storage);
  }
  /// The failure as a status, to pass it on from a function returning one.
  Status status() const { return ok() ? Status::success() : error(); }

private:
  std::variant<T, Error> storage;
};

} // namespace tilec

#endif // TILEC_RUNTIME_STATUS_H
