//===- ImplicitGemm.h - Contractions viewed as a matrix product -*- C++ -*-===//
//
// A convolution-like contraction +(A[...] * B[...]) whose accesses are
// integral affine polynomials is a matrix product over flattened indices:
// the output indices that address A only form M, those that address B only
// form N, those that address both form a batch, and the reduction indices
// form K. The tiled kernel stages A and B as for a dense product, but each
// staged element's address is decomposed from its flattened coordinates,
// and the accesses and constraints that do not hold throughout the index
// box become guards under which the element is staged as 0
// (docs/scheduler.md, "Implicit GEMM").
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LOWERING_IMPLICITGEMM_H
#define TILEC_LOWERING_IMPLICITGEMM_H

#include "tilec/Analysis/IndexSpace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace tile {
class ContractOp;
} // namespace tile
namespace lowering {

struct DenseMatmul;

struct ImplicitGemm {
  /// sum coeffs[v] * x_v + constant over the index variables (after the
  /// output's change of variables).
  struct Affine {
    std::vector<int64_t> coeffs;
    int64_t constant = 0;
  };
  /// 0 <= expr < bound, which the index box does not imply.
  struct Guard {
    Affine expr;
    int64_t bound = 0;
  };
  /// One index variable of a flattened dimension: it runs over
  /// [first, first + extent).
  struct Dim {
    unsigned var = 0;
    int64_t first = 0, extent = 1;
  };
  struct Operand {
    /// Which contraction input this is.
    unsigned input = 0;
    /// The element's position in the input's buffer (C order).
    Affine address;
    /// Where one fails, the element is staged as 0.
    std::vector<Guard> guards;
  };
  unsigned numIndices = 0;
  /// Each flattened dimension's variables, outermost first (the innermost
  /// varies fastest).
  std::vector<Dim> batch, m, n, k;
  Operand a, b;
  /// The variable of each output dimension.
  std::vector<unsigned> outputVars;
  /// Whether a staged slice of A (B) walks its contiguous index along K
  /// (else along M, N): the side whose innermost variable has coefficient 1
  /// in the operand's address.
  bool aAlongK = true, bAlongK = true;
};

/// The slice depth that K's innermost index is chosen to hold whole slices
/// of (the tiled schedule's usual depth; docs/scheduler.md, "Implicit GEMM").
constexpr int64_t kSliceAlignment = 8;

/// Whether a guard of `operand` reads index variable `var`.
bool isReadByGuard(const ImplicitGemm::Operand &operand, unsigned var);

/// Matches `op` (analysed as `space`) against the implicit GEMM view; on
/// failure `whyNot` says why.
std::optional<ImplicitGemm> matchImplicitGemm(tile::ContractOp op,
                                              const ContractionSpace &space,
                                              const IndexSystem &system,
                                              std::string &whyNot);

/// The dense product the tiled machinery sizes and runs for `gemm`: its
/// flattened extents, and A and B's strides reduced to which side each is
/// staged along.
DenseMatmul getImplicitGemmView(const ImplicitGemm &gemm);

/// The most elements (at most `limit`, a power of 2) of operand A (`isA`)
/// or B that one global load stages; `why` says why not `limit`, if not.
int64_t getImplicitStageWidth(const ImplicitGemm &gemm, bool isA,
                              int64_t blockOuter, int64_t blockK,
                              int64_t threads, int64_t limit, std::string &why);

/// "M=(n, y, x) 3136, N=(k) 64, K=(ky, kx, c) 576" for --explain.
std::string describeImplicitGemm(const ImplicitGemm &gemm,
                                 const IndexSystem &system);

} // namespace lowering
} // namespace tilec

#endif // TILEC_LOWERING_IMPLICITGEMM_H
