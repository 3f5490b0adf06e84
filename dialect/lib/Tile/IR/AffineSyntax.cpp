//===- AffineSyntax.cpp - Text form of rational affine polynomials --------===//

#include "AffineSyntax.h"
#include "tilec/Support/CheckedArithmetic.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace tilec::tile;
using tilec::Rational;

ParseResult tilec::tile::parseDimNames(AsmParser &parser,
                                       SmallVectorImpl<std::string> &names) {
  return parser.parseCommaSeparatedList(
      AsmParser::Delimiter::Paren, [&]() -> ParseResult {
        SMLoc loc = parser.getCurrentLocation();
        std::string name;
        if (parser.parseKeywordOrString(&name))
          return failure();
        if (llvm::is_contained(names, name))
          return parser.emitError(loc, "index '") << name << "' is repeated";
        names.push_back(std::move(name));
        return success();
      });
}

void tilec::tile::printDimNames(AsmPrinter &printer,
                                ArrayRef<std::string> names) {
  printer << '(';
  llvm::interleaveComma(names, printer, [&](const std::string &name) {
    printer.printKeywordOrString(name);
  });
  printer << ')';
}

namespace {
/// Parses the terms of one polynomial into a row.
class PolyParser {
public:
  PolyParser(AsmParser &parser, ArrayRef<std::string> dims,
             SmallVectorImpl<Rational> &row)
      : parser(parser), dims(dims), row(row) {}

  ParseResult parse() {
    row.resize(row.size() + dims.size() + 1);
    firstColumn = row.size() - dims.size() - 1;
    // The first term may carry a leading minus in its integer.
    if (parseTerm(/*coefficient=*/std::nullopt))
      return failure();
    while (true) {
      if (succeeded(parser.parseOptionalPlus())) {
        if (parseTerm(std::nullopt))
          return failure();
        continue;
      }
      // `- 2*i` lexes as the integer -2 followed by `*i`.
      SMLoc loc = parser.getCurrentLocation();
      int64_t coefficient = 0;
      OptionalParseResult negative = parser.parseOptionalInteger(coefficient);
      if (!negative.has_value())
        return success();
      if (failed(*negative))
        return failure();
      if (coefficient >= 0)
        return parser.emitError(loc, "expected '+' or '-' between terms");
      if (parseTerm(coefficient))
        return failure();
    }
  }

private:
  /// term := INT [`*` name] [`div` INT] | name [`div` INT]; `coefficient` is
  /// the integer when the caller consumed it already.
  ParseResult parseTerm(std::optional<int64_t> coefficient) {
    SMLoc loc = parser.getCurrentLocation();
    if (!coefficient) {
      int64_t value = 0;
      OptionalParseResult integer = parser.parseOptionalInteger(value);
      if (integer.has_value()) {
        if (failed(*integer))
          return failure();
        coefficient = value;
      }
    }
    unsigned column = dims.size();
    if (!coefficient || succeeded(parser.parseOptionalStar())) {
      SMLoc nameLoc = parser.getCurrentLocation();
      std::string name;
      if (parser.parseKeywordOrString(&name))
        return failure();
      auto *it = llvm::find(dims, name);
      if (it == dims.end())
        return parser.emitError(nameLoc, "unknown index '") << name << "'";
      column = it - dims.begin();
    }
    int64_t divisor = 1;
    if (succeeded(parser.parseOptionalKeyword("div"))) {
      SMLoc divisorLoc = parser.getCurrentLocation();
      if (parser.parseInteger(divisor))
        return failure();
      if (divisor <= 0)
        return parser.emitError(divisorLoc, "expected a positive divisor");
    }
    std::optional<Rational> term =
        Rational::get(coefficient.value_or(1), divisor);
    Rational &slot = row[firstColumn + column];
    std::optional<Rational> sum = term ? add(slot, *term) : std::nullopt;
    if (!sum)
      return parser.emitError(loc, "coefficient does not fit in 64 bits");
    slot = *sum;
    return success();
  }

  AsmParser &parser;
  ArrayRef<std::string> dims;
  SmallVectorImpl<Rational> &row;
  size_t firstColumn = 0;
};
} // namespace

ParseResult tilec::tile::parsePoly(AsmParser &parser,
                                   ArrayRef<std::string> dims,
                                   SmallVectorImpl<Rational> &row) {
  return PolyParser(parser, dims, row).parse();
}

void tilec::tile::printPoly(AsmPrinter &printer, ArrayRef<Rational> row,
                            ArrayRef<std::string> dims) {
  raw_ostream &os = printer.getStream();
  bool first = true;
  for (auto [column, value] : llvm::enumerate(row)) {
    if (value.isZero())
      continue;
    bool isConstant = column == dims.size();
    // A negative term prints its integer so that `-` lexes as its sign.
    if (value.num < 0)
      os << (first ? "-" : " - ");
    else if (!first)
      os << " + ";
    uint64_t absolute = tilec::magnitude(value.num);
    if (isConstant || absolute != 1 || value.num < 0)
      os << absolute;
    if (!isConstant) {
      if (absolute != 1 || value.num < 0)
        os << '*';
      printer.printKeywordOrString(dims[column]);
    }
    if (!value.isInteger())
      os << " div " << value.den;
    first = false;
  }
  if (first)
    os << '0';
}

SmallVector<std::string> tilec::tile::positionalDimNames(unsigned count) {
  SmallVector<std::string> names;
  for (unsigned i = 0; i < count; ++i)
    names.push_back("d" + std::to_string(i));
  return names;
}
