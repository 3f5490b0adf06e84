//===- AffineSyntax.h - Text form of rational affine polynomials -*- C++
//-*-===//
//
// One syntax for the polynomials of `#tile.map` and of `tile.contract`:
// `2*i + k div 2 - 1*j - 1`. The MLIR lexer has no `/` and folds a `-` into
// the integer after it, so a fractional coefficient is written `n*x div d`
// (exact division) and a negative term carries its integer (`- 1*j`).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_IR_AFFINESYNTAX_H
#define TILEC_DIALECT_TILE_IR_AFFINESYNTAX_H

#include "tilec/Support/Rational.h"

#include "mlir/IR/OpImplementation.h"

#include <string>

namespace tilec {
namespace tile {

/// Parses `(name, ...)`, rejecting repeated names.
mlir::ParseResult parseDimNames(mlir::AsmParser &parser,
                                llvm::SmallVectorImpl<std::string> &names);
void printDimNames(mlir::AsmPrinter &printer,
                   llvm::ArrayRef<std::string> names);

/// Parses one polynomial over `dims` and appends its dims.size() coefficients
/// and its constant to `row`.
mlir::ParseResult parsePoly(mlir::AsmParser &parser,
                            llvm::ArrayRef<std::string> dims,
                            llvm::SmallVectorImpl<Rational> &row);
/// Prints the polynomial `row` (coefficients of `dims`, then the constant).
void printPoly(mlir::AsmPrinter &printer, llvm::ArrayRef<Rational> row,
               llvm::ArrayRef<std::string> dims);

/// d0, d1, ...: the names under which an attribute prints its dims.
llvm::SmallVector<std::string> positionalDimNames(unsigned count);

} // namespace tile
} // namespace tilec

#endif // TILEC_DIALECT_TILE_IR_AFFINESYNTAX_H
