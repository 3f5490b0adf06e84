//===- FloatBuilder.cpp - Typed constants for the SPIR-V expansions -------===//

#include "FloatBuilder.h"

using namespace mlir;

namespace tilec {

Type withElementType(Type like, Type element) {
  if (auto shaped = dyn_cast<ShapedType>(like))
    return shaped.clone(element);
  return element;
}

Value splatConstant(ImplicitLocOpBuilder &b, Type type, double value) {
  Type element = getElementTypeOrSelf(type);
  TypedAttr scalar =
      isa<FloatType>(element)
          ? TypedAttr(b.getFloatAttr(element, value))
          : TypedAttr(b.getIntegerAttr(element, static_cast<int64_t>(value)));
  if (auto vector = dyn_cast<VectorType>(type))
    return b.create<arith::ConstantOp>(SplatElementsAttr::get(vector, scalar));
  return b.create<arith::ConstantOp>(scalar);
}

} // namespace tilec
