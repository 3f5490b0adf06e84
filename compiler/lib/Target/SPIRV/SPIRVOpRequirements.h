//===- SPIRVOpRequirements.h - What decides a spirv op's requirements -----===//
//
// A spirv op's own requirements (its version range, extensions and
// capabilities; its types' are asked separately) come from its name and
// from the enums among its attributes, which the generated availability
// reads. An op without properties holds every attribute in its dictionary,
// so its name and dictionary decide them: the legality of the conversion
// and the module's deduced capabilities ask each such pair once. An op with
// properties gets no key, since reading them would build a dictionary.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_TARGET_SPIRV_SPIRVOPREQUIREMENTS_H
#define TILEC_LIB_TARGET_SPIRV_SPIRVOPREQUIREMENTS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"

#include <optional>
#include <utility>

namespace tilec {

using OpRequirementsKey = std::pair<mlir::OperationName, mlir::DictionaryAttr>;

/// The name and attributes of `op`, where they decide its requirements.
inline std::optional<OpRequirementsKey>
getOpRequirementsKey(mlir::Operation *op) {
  if (op->getPropertiesStorageSize() != 0)
    return std::nullopt;
  return OpRequirementsKey(op->getName(), op->getRawDictionaryAttrs());
}

} // namespace tilec

#endif // TILEC_LIB_TARGET_SPIRV_SPIRVOPREQUIREMENTS_H
