//===- TileAttrs.cpp - Attributes of the tile dialect ---------------------===//

#include "tilec/Dialect/Tile/IR/TileAttrs.h"
#include "tilec/Dialect/Tile/IR/TileDialect.h"

#include "AffineSyntax.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;
using tilec::Rational;

#include "tilec/Dialect/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// RationalMapAttr
//===----------------------------------------------------------------------===//

unsigned RationalMapAttr::getNumResults() const {
  return getRows().size() / (getNumDims() + 1);
}

ArrayRef<Rational> RationalMapAttr::getRow(unsigned result) const {
  unsigned width = getNumDims() + 1;
  return getRows().slice(result * width, width);
}

Rational RationalMapAttr::getCoefficient(unsigned result, unsigned dim) const {
  return getRow(result)[dim];
}

Rational RationalMapAttr::getConstant(unsigned result) const {
  return getRow(result).back();
}

bool RationalMapAttr::isIntegral() const {
  return llvm::all_of(getRows(),
                      [](const Rational &value) { return value.isInteger(); });
}

LogicalResult
RationalMapAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        unsigned numDims, ArrayRef<Rational> rows) {
  if (rows.size() % (numDims + 1) != 0)
    return emitError() << "a map over " << numDims << " dims needs "
                       << numDims + 1 << " entries per result, got "
                       << rows.size() << " entries";
  for (const Rational &value : rows)
    if (!value.isNormalized())
      return emitError() << "rational " << value.num << "/" << value.den
                         << " is not normalised (positive denominator, "
                            "coprime terms)";
  return success();
}

Attribute RationalMapAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<std::string> dims;
  SmallVector<Rational> rows;
  if (parser.parseLess() || parseDimNames(parser, dims) ||
      parser.parseArrow() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren,
          [&]() { return parsePoly(parser, dims, rows); }) ||
      parser.parseGreater())
    return {};
  return getChecked([&]() { return parser.emitError(loc); },
                    parser.getContext(), dims.size(), rows);
}

void RationalMapAttr::print(AsmPrinter &printer) const {
  SmallVector<std::string> dims = positionalDimNames(getNumDims());
  printer << '<';
  printDimNames(printer, dims);
  printer << " -> (";
  for (unsigned result = 0, e = getNumResults(); result < e; ++result) {
    if (result)
      printer << ", ";
    printPoly(printer, getRow(result), dims);
  }
  printer << ")>";
}
