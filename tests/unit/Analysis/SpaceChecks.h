//===- SpaceChecks.h - Checking a ContractionSpace by enumeration -*- C++
//-*-===//
//
// The tests judge the analysis by its meaning: the tuples that interpreting
// a ContractionSpace enumerates must be exactly the valid tuples that a
// brute-force search over a box finds by the definition (docs/language.md,
// section 3).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_ANALYSIS_SPACECHECKS_H
#define TILEC_TESTS_UNIT_ANALYSIS_SPACECHECKS_H

#include "tilec/Analysis/IndexSpace.h"

#include "mlir/IR/MLIRContext.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tilec {
namespace testing {

/// An output element and one index tuple that reaches it.
using Point = std::pair<std::vector<int64_t>, std::vector<int64_t>>;
using Box = std::vector<std::pair<int64_t, int64_t>>;

/// Runs the loop nest `space` describes for every element of the output box
/// (sorted). Fails the test on a malformed space.
std::vector<Point> enumerateSpace(const ContractionSpace &space,
                                  const Shape &outputExtents);

/// Every tuple in `box` that is valid by the definition, with its output
/// element (sorted).
std::vector<Point> enumerateByDefinition(const IndexSystem &system,
                                         const Box &box);

/// The box that the accesses and constraints of a single index variable
/// imply, which holds every valid tuple; nullopt when some variable has no
/// such access.
std::optional<Box> getDirectBox(const IndexSystem &system);

/// Fails the test unless `space` is well formed: bounds over coordinates and
/// outer free variables only, pivots over coordinates and free variables,
/// free variables and pivots partitioning the indices, and so on.
void expectWellFormed(const ContractionSpace &space);

/// Analyses `system` and expects its enumeration to match the definition
/// over the direct box; returns the space.
std::optional<ContractionSpace>
expectMatchesDefinition(const IndexSystem &system);

/// The system of the `tile.contract` with the given body (what follows
/// `tile.contract`, before the colon), input shapes and result shape
/// (`3x4`, or empty for a scalar). The inputs are %a0, %a1, ...
IndexSystem parseContract(mlir::MLIRContext &context, const std::string &body,
                          const std::vector<std::string> &inputShapes,
                          const std::string &resultShape);

} // namespace testing
} // namespace tilec

#endif // TILEC_TESTS_UNIT_ANALYSIS_SPACECHECKS_H
