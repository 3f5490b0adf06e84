//===- ContractOp.cpp - tile.contract -------------------------------------===//

#include "tilec/Dialect/Tile/IR/TileOps.h"

#include "AffineSyntax.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilec::tile;
using tilec::Rational;

unsigned ContractOp::getNumInputsOf(CombinationKind kind) {
  switch (kind) {
  case CombinationKind::None:
    return 1;
  case CombinationKind::Mul:
  case CombinationKind::Add:
  case CombinationKind::Eq:
    return 2;
  case CombinationKind::Cond:
    return 3;
  }
  llvm_unreachable("unknown combination kind");
}

//===----------------------------------------------------------------------===//
// Verification
//===----------------------------------------------------------------------===//

/// Checks that `map` is over `numIndices` dims and yields `rank` results.
static LogicalResult verifyMap(ContractOp op, RationalMapAttr map,
                               unsigned numIndices, int64_t rank,
                               StringRef what) {
  if (map.getNumDims() != numIndices)
    return op.emitOpError()
           << what << " map has " << map.getNumDims() << " dims but there are "
           << numIndices << " indices";
  if (map.getNumResults() != rank)
    return op.emitOpError() << what << " map has " << map.getNumResults()
                            << " results but the tensor has rank " << rank;
  return success();
}

static Type elementTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

/// Checks the element types of the inputs against the combination.
static LogicalResult verifyElementTypes(ContractOp op) {
  Type resultType = op.getType().getElementType();
  OperandRange inputs = op.getInputs();
  auto requireResultType = [&](unsigned input) -> LogicalResult {
    if (elementTypeOf(inputs[input]) == resultType)
      return success();
    return op.emitOpError("input ")
           << input << " has element type " << elementTypeOf(inputs[input])
           << " but the result has " << resultType
           << "; convert it with tile.cast";
  };
  auto requireComparable = [&]() -> LogicalResult {
    if (elementTypeOf(inputs[0]) == elementTypeOf(inputs[1]))
      return success();
    return op.emitOpError("compares inputs of different element types ")
           << elementTypeOf(inputs[0]) << " and " << elementTypeOf(inputs[1]);
  };
  switch (op.getCombination()) {
  case CombinationKind::None:
  case CombinationKind::Mul:
  case CombinationKind::Add:
    for (unsigned input = 0; input < inputs.size(); ++input)
      if (failed(requireResultType(input)))
        return failure();
    return success();
  case CombinationKind::Eq:
    if (!resultType.isInteger(1))
      return op.emitOpError("with combination 'eq' must yield i1, not ")
             << resultType;
    return requireComparable();
  case CombinationKind::Cond:
    if (failed(requireComparable()))
      return failure();
    return requireResultType(2);
  }
  llvm_unreachable("unknown combination kind");
}

LogicalResult ContractOp::verify() {
  unsigned expectedInputs = getNumInputsOf(getCombination());
  if (getInputs().size() != expectedInputs)
    return emitOpError("combination '")
           << stringifyCombinationKind(getCombination()) << "' takes "
           << expectedInputs << (expectedInputs == 1 ? " input" : " inputs")
           << ", got " << getInputs().size();

  llvm::SmallDenseSet<StringRef> seen;
  for (StringRef name : getIndexNames().getAsValueRange<StringAttr>()) {
    if (name.empty())
      return emitOpError("has an empty index name");
    if (!seen.insert(name).second)
      return emitOpError("index '") << name << "' is repeated";
  }
  unsigned numIndices = getIndexNames().size();

  if (failed(verifyMap(*this, getOutputMap(), numIndices, getType().getRank(),
                       "output")))
    return failure();
  if (getInputMaps().size() != getInputs().size())
    return emitOpError("has ") << getInputMaps().size() << " input maps for "
                               << getInputs().size() << " inputs";
  for (auto [position, input] : llvm::enumerate(getInputs())) {
    std::string what = "input " + std::to_string(position);
    if (failed(verifyMap(*this, getInputMap(position), numIndices,
                         cast<RankedTensorType>(input.getType()).getRank(),
                         what)))
      return failure();
  }

  if (getInit() && getInit().getType() != getType())
    return emitOpError("default has type ")
           << getInit().getType() << " but the result has type " << getType();

  std::optional<RationalMapAttr> constraints = getConstraints();
  std::optional<ArrayRef<int64_t>> bounds = getConstraintBounds();
  if (constraints.has_value() != bounds.has_value())
    return emitOpError("needs both 'constraints' and 'constraint_bounds' or "
                       "neither");
  if (constraints) {
    if (constraints->getNumDims() != numIndices)
      return emitOpError("constraint map has ")
             << constraints->getNumDims() << " dims but there are "
             << numIndices << " indices";
    if (constraints->getNumResults() != bounds->size())
      return emitOpError("has ")
             << constraints->getNumResults() << " constraints but "
             << bounds->size() << " bounds";
    for (int64_t bound : *bounds)
      if (bound < 0)
        return emitOpError("constraint bound ")
               << bound << " is negative; an empty range is written as 0";
  }
  return verifyElementTypes(*this);
}

//===----------------------------------------------------------------------===//
// Assembly format
//
//   tile.contract AGG[, COMBO] (indices) [out-polys] = %in[polys], ...
//     [where poly < bound, ...] [default %init] [no_defract] attr-dict
//     : input-types -> result-type
//===----------------------------------------------------------------------===//

/// Parses `[poly, ...]` into one more result of a map's rows.
static ParseResult parsePolyList(OpAsmParser &parser,
                                 ArrayRef<std::string> indices,
                                 SmallVectorImpl<Rational> &rows) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    return parsePoly(parser, indices, rows);
  });
}

template <typename EnumT>
static ParseResult
parseEnumKeyword(OpAsmParser &parser, StringRef what,
                 std::optional<EnumT> (*symbolize)(StringRef), EnumT &value) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> parsed = symbolize(keyword);
  if (!parsed)
    return parser.emitError(loc, "unknown ") << what << " '" << keyword << "'";
  value = *parsed;
  return success();
}

ParseResult ContractOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *context = parser.getContext();
  Builder &builder = parser.getBuilder();
  OperationName name = result.name;

  AggregationKind aggregation = AggregationKind::Add;
  CombinationKind combination = CombinationKind::None;
  if (parseEnumKeyword(parser, "aggregation", symbolizeAggregationKind,
                       aggregation))
    return failure();
  if (succeeded(parser.parseOptionalComma()) &&
      parseEnumKeyword(parser, "combination", symbolizeCombinationKind,
                       combination))
    return failure();

  SmallVector<std::string> indices;
  SmallVector<Rational> outputRows;
  if (parseDimNames(parser, indices) ||
      parsePolyList(parser, indices, outputRows) || parser.parseEqual())
    return failure();

  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  SmallVector<Attribute> inputMaps;
  if (parser.parseCommaSeparatedList([&]() -> ParseResult {
        SmallVector<Rational> rows;
        if (parser.parseOperand(inputs.emplace_back()) ||
            parsePolyList(parser, indices, rows))
          return failure();
        inputMaps.push_back(
            RationalMapAttr::get(context, indices.size(), rows));
        return success();
      }))
    return failure();

  if (succeeded(parser.parseOptionalKeyword("where"))) {
    SmallVector<Rational> rows;
    SmallVector<int64_t> bounds;
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          return failure(parsePoly(parser, indices, rows) ||
                         parser.parseLess() ||
                         parser.parseInteger(bounds.emplace_back()));
        }))
      return failure();
    result.addAttribute(getConstraintsAttrName(name),
                        RationalMapAttr::get(context, indices.size(), rows));
    result.addAttribute(getConstraintBoundsAttrName(name),
                        builder.getDenseI64ArrayAttr(bounds));
  }

  std::optional<OpAsmParser::UnresolvedOperand> init;
  if (succeeded(parser.parseOptionalKeyword("default")) &&
      parser.parseOperand(init.emplace()))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("no_defract")))
    result.addAttribute(getNoDefractAttrName(name), builder.getUnitAttr());

  SMLoc typesLoc = parser.getCurrentLocation();
  SmallVector<Type> inputTypes;
  Type resultType;
  if (parser.parseOptionalAttrDict(result.attributes) || parser.parseColon() ||
      parser.parseTypeList(inputTypes) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperands(inputs, inputTypes, typesLoc, result.operands) ||
      (init && parser.resolveOperand(*init, resultType, result.operands)))
    return failure();

  result.addAttribute(getAggregationAttrName(name),
                      AggregationKindAttr::get(context, aggregation));
  result.addAttribute(getCombinationAttrName(name),
                      CombinationKindAttr::get(context, combination));
  result.addAttribute(getIndexNamesAttrName(name),
                      builder.getStrArrayAttr(SmallVector<StringRef>(
                          indices.begin(), indices.end())));
  result.addAttribute(
      getOutputMapAttrName(name),
      RationalMapAttr::get(context, indices.size(), outputRows));
  result.addAttribute(getInputMapsAttrName(name),
                      builder.getArrayAttr(inputMaps));
  result.getOrAddProperties<Properties>().operandSegmentSizes = {
      static_cast<int32_t>(inputs.size()), init ? 1 : 0};
  result.addTypes(resultType);
  return success();
}

/// Prints `[poly, ...]` for every result of `map`.
static void printPolyList(OpAsmPrinter &printer, RationalMapAttr map,
                          ArrayRef<std::string> indices) {
  printer << '[';
  for (unsigned result = 0, e = map.getNumResults(); result < e; ++result) {
    if (result)
      printer << ", ";
    printPoly(printer, map.getRow(result), indices);
  }
  printer << ']';
}

void ContractOp::print(OpAsmPrinter &printer) {
  SmallVector<std::string> indices(
      getIndexNames().getAsValueRange<StringAttr>());
  printer << ' ' << stringifyAggregationKind(getAggregation());
  if (getCombination() != CombinationKind::None)
    printer << ", " << stringifyCombinationKind(getCombination());
  printer << ' ';
  printDimNames(printer, indices);
  printer << ' ';
  printPolyList(printer, getOutputMap(), indices);
  printer << " = ";
  for (auto [position, input] : llvm::enumerate(getInputs())) {
    if (position)
      printer << ", ";
    printer << input;
    printPolyList(printer, getInputMap(position), indices);
  }
  if (std::optional<RationalMapAttr> constraints = getConstraints()) {
    printer << " where ";
    for (auto [position, bound] : llvm::enumerate(*getConstraintBounds())) {
      if (position)
        printer << ", ";
      printPoly(printer, constraints->getRow(position), indices);
      printer << " < " << bound;
    }
  }
  if (getInit())
    printer << " default " << getInit();
  if (getNoDefract())
    printer << " no_defract";
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getAggregationAttrName(), getCombinationAttrName(),
       getIndexNamesAttrName(), getOutputMapAttrName(), getInputMapsAttrName(),
       getConstraintsAttrName(), getConstraintBoundsAttrName(),
       getNoDefractAttrName(), "operandSegmentSizes"});
  printer << " : ";
  llvm::interleaveComma(getInputs().getTypes(), printer);
  printer << " -> " << getType();
}
