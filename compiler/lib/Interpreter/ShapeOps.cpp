//===- ShapeOps.cpp - Evaluation of reshape and shape ---------------------===//

#include "Evaluation.h"

#include <cstring>
#include <limits>

using namespace tilec;
using namespace tilec::interp;

std::optional<HostTensor> interp::evaluateReshape(const Statement &statement,
                                                  const Reshape &reshape,
                                                  const TensorTable &table) {
  const TensorDecl &output = table.getProgram().tensors[statement.output];
  const HostTensor *input = table.lookup(reshape.input, statement.loc);
  if (!input)
    return std::nullopt;
  if (input->dtype() != output.dtype ||
      numElements(output.shape) != input->numElements()) {
    reportError(table.getSourceMgr(), statement.loc,
                "internal error: cannot reshape " +
                    llvm::Twine(dtypeName(input->dtype())) +
                    formatCoordinates(input->shape()) + " to " +
                    dtypeName(output.dtype) + formatCoordinates(output.shape));
    return std::nullopt;
  }
  // The same elements in C order: the bytes do not change.
  std::optional<HostTensor> result = makeTensor(
      output.dtype, output.shape, statement.loc, table.getSourceMgr());
  if (!result)
    return std::nullopt;
  if (input->sizeInBytes() != 0)
    std::memcpy(result->data(), input->data(), input->sizeInBytes());
  return result;
}

std::optional<HostTensor> interp::evaluateShapeOf(const Statement &statement,
                                                  const ShapeOf &shapeOf,
                                                  const TensorTable &table) {
  const HostTensor *input = table.lookup(shapeOf.input, statement.loc);
  if (!input)
    return std::nullopt;
  HostTensor result(DType::I32, {input->rank()});
  for (int64_t d = 0; d < input->rank(); ++d) {
    int64_t extent = input->shape()[d];
    if (extent > std::numeric_limits<int32_t>::max()) {
      reportError(table.getSourceMgr(), statement.loc,
                  "extent " + llvm::Twine(extent) + " of dimension " +
                      llvm::Twine(d) + " does not fit in i32");
      return std::nullopt;
    }
    result.setInt(d, extent);
  }
  return result;
}
