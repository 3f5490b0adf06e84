//===- TensorTable.cpp - Tensor values and error reporting ----------------===//

#include "Evaluation.h"
#include "HostMemory.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>

using namespace tilec;
using namespace tilec::interp;

void interp::reportError(llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                         const llvm::Twine &message) {
  sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, message);
}

std::string interp::formatCoordinates(llvm::ArrayRef<int64_t> coordinates) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << '[';
  llvm::interleaveComma(coordinates, os);
  os << ']';
  return text;
}

std::optional<HostTensor> interp::makeTensor(DType dtype, const Shape &shape,
                                             llvm::SMLoc loc,
                                             llvm::SourceMgr &sourceMgr,
                                             uint64_t extraBytesPerElement) {
  std::string type = dtypeName(dtype) + formatCoordinates(shape);
  std::optional<int64_t> count = numElements(shape);
  uint64_t bytesPerElement = dtypeSize(dtype) + extraBytesPerElement;
  if (!count || *count < 0 ||
      uint64_t(*count) >
          std::min<uint64_t>(SIZE_MAX, UINT64_MAX) / bytesPerElement) {
    reportError(sourceMgr, loc,
                "the reference interpreter cannot hold " + type +
                    ": its size in bytes overflows 64 bits");
    return std::nullopt;
  }
  if (std::optional<std::string> tooLarge =
          checkHostMemory(uint64_t(*count) * bytesPerElement)) {
    reportError(sourceMgr, loc,
                "too large for the reference interpreter: " + type + " " +
                    *tooLarge);
    return std::nullopt;
  }
  return HostTensor(dtype, shape);
}

std::optional<HostTensor> TensorTable::release(unsigned id) {
  if (id >= computed.size() || !computed[id])
    return std::nullopt;
  values[id] = nullptr;
  return std::move(computed[id]);
}

TensorTable::TensorTable(const Program &program, llvm::SourceMgr &sourceMgr,
                         WorkProgress &progress, Perturbation perturbation)
    : program(program), sourceMgr(sourceMgr), progress(progress),
      perturbation(perturbation), values(program.tensors.size(), nullptr),
      computed(program.tensors.size()) {}

void TensorTable::bind(unsigned id, const HostTensor &input) {
  values[id] = &input;
}

void TensorTable::define(unsigned id, HostTensor value) {
  computed[id] = std::move(value);
  values[id] = &*computed[id];
}

const HostTensor *TensorTable::lookup(unsigned id, llvm::SMLoc loc) const {
  if (id < values.size() && values[id])
    return values[id];
  reportError(sourceMgr, loc,
              "internal error: the program uses tensor #" + llvm::Twine(id) +
                  " before it has a value");
  return nullptr;
}
