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

namespace tilec {
namespace tile {

/// `[x, y, z]`, the work-group size and count of a schedule.
static FailureOr<SmallVector<int64_t>> parseDim3(AsmParser &parser) {
  SmallVector<int64_t> extents;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
        return parser.parseInteger(extents.emplace_back());
      }))
    return failure();
  return extents;
}

static void printDim3(AsmPrinter &printer, ArrayRef<int64_t> extents) {
  printer << '[';
  llvm::interleaveComma(extents, printer);
  printer << ']';
}

static FailureOr<bool> parseFlag(AsmParser &parser) {
  if (succeeded(parser.parseOptionalKeyword("true")))
    return true;
  if (succeeded(parser.parseOptionalKeyword("false")))
    return false;
  return parser.emitError(parser.getCurrentLocation(),
                          "expected 'true' or 'false'");
}

} // namespace tile
} // namespace tilec

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

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

LogicalResult
ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError, ScheduleKind,
                     ArrayRef<int64_t> localSize, ArrayRef<int64_t> numGroups,
                     int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                     int64_t, int64_t, int64_t vectorWidth, int64_t, int64_t,
                     bool, int64_t walkWidth, int64_t, int64_t, int64_t,
                     int64_t, int64_t, int64_t, bool, int64_t stepWidth,
                     int64_t elementsPerGroup, int64_t partialGroups, bool,
                     bool lastGroupCombines, bool, int64_t rowsPerGroup,
                     int64_t, int64_t rowChunks, bool onlineSums,
                     FloatAttr loopPasses, int64_t, int64_t, bool, StringRef) {
  for (auto [name, extents] :
       {std::pair{"local_size", localSize}, {"num_groups", numGroups}}) {
    if (extents.size() != 3)
      return emitError() << name << " needs 3 extents (x, y, z), got "
                         << extents.size();
    if (llvm::any_of(extents, [](int64_t extent) { return extent < 1; }))
      return emitError() << name << " extents must be positive";
  }
  if (vectorWidth < 1 || walkWidth < 1 || stepWidth < 1 ||
      elementsPerGroup < 1 || partialGroups < 1 || rowsPerGroup < 1 ||
      rowChunks < 1)
    return emitError() << "vector_width, walk_width, step_width, "
                          "elements_per_group, partial_groups, rows_per_group "
                          "and row_chunks must be positive";
  if (lastGroupCombines && partialGroups < 2)
    return emitError() << "last_group_combines needs partial_groups above 1";
  if (onlineSums && rowChunks < 2)
    return emitError() << "online_sums needs row_chunks above 1 (a streamed "
                          "row)";
  if (!loopPasses || !loopPasses.getType().isF64())
    return emitError() << "loop_passes must be an f64 float";
  return success();
}
