//===- ImplicitGemm.cpp - Contractions viewed as a matrix product ---------===//
//
// The matching rule of the implicit GEMM schedule (docs/scheduler.md,
// "Implicit GEMM"): the output's change of variables, the index box, the
// guards, the flattened dimensions and the legality of vector staging.
//
//===----------------------------------------------------------------------===//

#include "tilec/Lowering/ImplicitGemm.h"

#include "tilec/Lowering/Schedule.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace tilec;
using namespace tilec::lowering;

namespace {
/// Coefficients of the index variables, then the constant.
using Row = std::vector<int64_t>;

/// A row that the box must keep in [0, bound): an input access or a
/// constraint, and where it comes from, for messages.
struct Bounded {
  Row row;
  int64_t bound = 0;
  /// The input it addresses; none for a constraint.
  std::optional<unsigned> input;
};

/// Flattened extents stay well inside 32-bit index arithmetic.
constexpr int64_t kMaxFlatExtent = int64_t(1) << 30;
} // namespace

static std::string getName(const IndexSystem &system, unsigned var) {
  if (var < system.names.size() && !system.names[var].empty())
    return system.names[var];
  return "#" + std::to_string(var);
}

static std::optional<Row> getIntegralRow(const IndexSystem::Row &row) {
  for (int64_t den : row.den)
    if (den != 1)
      return std::nullopt;
  return row.num;
}

/// Replaces variable `var` by the output coordinate `h` that `output` (its
/// coefficient of `var` is +-1) equals: x_var = s * (h - rest), s = +-1,
/// with `h` taking var's slot. False on overflow.
static bool substitute(Row &row, const Row &output, unsigned var) {
  int64_t a = row[var];
  if (a == 0)
    return true;
  int64_t s = output[var];
  for (unsigned u = 0; u < row.size(); ++u) {
    if (u == var)
      continue;
    int64_t product;
    if (__builtin_mul_overflow(a * s, output[u], &product) ||
        __builtin_sub_overflow(row[u], product, &row[u]))
      return false;
  }
  row[var] = a * s;
  return true;
}

/// The least and greatest value of `row` over the box [lo, hi].
static std::pair<double, double> getRange(const Row &row,
                                          const std::vector<int64_t> &lo,
                                          const std::vector<int64_t> &hi) {
  double min = double(row.back()), max = min;
  for (unsigned v = 0; v + 1 < row.size(); ++v) {
    double a = double(row[v]);
    if (a == 0)
      continue;
    double atLo = a * double(lo[v]), atHi = a * double(hi[v]);
    min += std::min(atLo, atHi);
    max += std::max(atLo, atHi);
  }
  return {min, max};
}

bool lowering::isReadByGuard(const ImplicitGemm::Operand &operand,
                             unsigned var) {
  return llvm::any_of(operand.guards, [&](const ImplicitGemm::Guard &guard) {
    return guard.expr.coeffs[var] != 0;
  });
}

/// Whether a guard of either operand reads index variable `var`.
static bool isGuarded(const ImplicitGemm &gemm, unsigned var) {
  return isReadByGuard(gemm.a, var) || isReadByGuard(gemm.b, var);
}

/// Whether `dim`, innermost in K, keeps each slice of kSliceAlignment
/// positions within one run of it (its range is a multiple of the slice)
/// with nothing to check along it (no guard reads it).
static bool alignsSlices(const ImplicitGemm &gemm,
                         const ImplicitGemm::Dim &dim) {
  return dim.extent % kSliceAlignment == 0 && !isGuarded(gemm, dim.var);
}

static ImplicitGemm::Affine toAffine(const Row &row) {
  return {Row(row.begin(), row.end() - 1), row.back()};
}

std::optional<ImplicitGemm>
lowering::matchImplicitGemm(tile::ContractOp op, const ContractionSpace &space,
                            const IndexSystem &system, std::string &whyNot) {
  if (!isFloatSumOfProducts(op, whyNot))
    return std::nullopt;
  if (space.empty || system.inputs.size() != 2) {
    whyNot = "the index space is empty";
    return std::nullopt;
  }
  unsigned numVars = system.numIndices;
  unsigned rank = system.output.rows.size();
  std::vector<Row> output;
  for (const IndexSystem::Row &row : system.output.rows) {
    std::optional<Row> integral = getIntegralRow(row);
    if (!integral) {
      whyNot = "an output index is fractional";
      return std::nullopt;
    }
    output.push_back(*integral);
  }
  std::vector<Bounded> bounded;
  for (unsigned input = 0; input < 2; ++input) {
    const IndexSystem::Access &access = system.inputs[input];
    for (unsigned dim = 0; dim < access.rows.size(); ++dim) {
      std::optional<Row> integral = getIntegralRow(access.rows[dim]);
      if (!integral) {
        whyNot = "an operand's index is fractional (the stride of a "
                 "transposed convolution)";
        return std::nullopt;
      }
      bounded.push_back({*integral, access.extents[dim], input});
    }
  }
  for (const auto &[row, bound] : system.constraints) {
    std::optional<Row> integral = getIntegralRow(row);
    if (!integral) {
      whyNot = "a constraint is fractional";
      return std::nullopt;
    }
    bounded.push_back({*integral, bound, std::nullopt});
  }

  // Each output dimension becomes an index variable of its own: one of its
  // variables with coefficient +-1 that no other output dimension uses is
  // solved for the coordinate (a convolution's gradient with respect to its
  // input, written as a scatter, becomes the gather of a convolution).
  ImplicitGemm gemm;
  gemm.numIndices = numVars;
  std::vector<bool> isOutputVar(numVars, false);
  for (unsigned d = 0; d < rank; ++d) {
    unsigned chosen = numVars;
    for (unsigned v = 0; v < numVars && chosen == numVars; ++v) {
      if (isOutputVar[v] || std::abs(output[d][v]) != 1)
        continue;
      bool shared = false;
      for (unsigned e = 0; e < rank; ++e)
        shared |= e != d && output[e][v] != 0;
      if (!shared)
        chosen = v;
    }
    if (chosen == numVars) {
      whyNot = "output dimension " + std::to_string(d) +
               " has no index of its own with coefficient 1 or -1";
      return std::nullopt;
    }
    isOutputVar[chosen] = true;
    gemm.outputVars.push_back(chosen);
    Row unit(numVars + 1, 0);
    unit[chosen] = 1;
    if (output[d] == unit)
      continue;
    for (Bounded &entry : bounded)
      if (!substitute(entry.row, output[d], chosen)) {
        whyNot = "the change of variables overflows";
        return std::nullopt;
      }
    output[d] = unit;
  }

  // The index box: the output's extents, and for each reduction index the
  // rows that bound it alone.
  constexpr int64_t unbounded = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> lo(numVars, -unbounded), hi(numVars, unbounded);
  for (unsigned d = 0; d < rank; ++d) {
    lo[gemm.outputVars[d]] = 0;
    hi[gemm.outputVars[d]] = system.output.extents[d] - 1;
  }
  for (const Bounded &entry : bounded) {
    unsigned var = numVars, count = 0;
    for (unsigned v = 0; v < numVars; ++v)
      if (entry.row[v] != 0) {
        var = v;
        ++count;
      }
    if (count != 1 || isOutputVar[var])
      continue;
    // 0 <= a*x + c <= bound - 1.
    int64_t a = entry.row[var], c = entry.row[numVars];
    int64_t low = a > 0 ? llvm::divideCeilSigned(-c, a)
                        : llvm::divideCeilSigned(entry.bound - 1 - c, a);
    int64_t high = a > 0 ? llvm::divideFloorSigned(entry.bound - 1 - c, a)
                         : llvm::divideFloorSigned(-c, a);
    lo[var] = std::max(lo[var], low);
    hi[var] = std::min(hi[var], high);
  }
  for (unsigned v = 0; v < numVars; ++v) {
    if (lo[v] == -unbounded || hi[v] == unbounded) {
      whyNot = "reduction index '" + getName(system, v) +
               "' has no range of its own (no access or constraint bounds "
               "it alone)";
      return std::nullopt;
    }
    if (lo[v] > hi[v]) {
      whyNot =
          "the range of reduction index '" + getName(system, v) + "' is empty";
      return std::nullopt;
    }
  }

  // Which operands each index addresses.
  std::vector<std::array<bool, 2>> addresses(numVars, {false, false});
  for (const Bounded &entry : bounded)
    if (entry.input)
      for (unsigned v = 0; v < numVars; ++v)
        addresses[v][*entry.input] |= entry.row[v] != 0;
  std::array<std::vector<unsigned>, 2> sides;
  std::vector<unsigned> batchVars, kVars;
  for (unsigned v = 0; v < numVars; ++v) {
    auto [first, second] = addresses[v];
    if (!first && !second) {
      whyNot = "index '" + getName(system, v) + "' addresses neither operand";
      return std::nullopt;
    }
    if (!isOutputVar[v])
      kVars.push_back(v);
    else if (first && second)
      batchVars.push_back(v);
    else
      sides[first ? 0 : 1].push_back(v);
  }
  for (unsigned input = 0; input < 2; ++input)
    if (sides[input].empty()) {
      whyNot = "no output index addresses input " + std::to_string(input) +
               " alone, so no tile of one operand serves several outputs "
               "(a matrix-vector product, or a depthwise convolution, where "
               "each output channel reads its own input channel)";
      return std::nullopt;
    }
  // N holds the output's innermost dimension where it can, so that
  // neighbouring work-items store neighbouring outputs.
  unsigned innermost = gemm.outputVars.back();
  unsigned inputB = addresses[innermost][0] && !addresses[innermost][1] ? 0 : 1;
  unsigned inputA = 1 - inputB;
  gemm.a.input = inputA;
  gemm.b.input = inputB;

  // Addresses, and the rows the box does not imply as guards.
  std::array<Row, 2> address = {Row(numVars + 1, 0), Row(numVars + 1, 0)};
  std::array<int64_t, 2> stride = {1, 1};
  for (auto it = bounded.rbegin(); it != bounded.rend(); ++it) {
    if (!it->input)
      continue;
    for (unsigned u = 0; u <= numVars; ++u)
      address[*it->input][u] += it->row[u] * stride[*it->input];
    stride[*it->input] *= it->bound;
  }
  gemm.a.address = toAffine(address[inputA]);
  gemm.b.address = toAffine(address[inputB]);
  for (const Bounded &entry : bounded) {
    auto [min, max] = getRange(entry.row, lo, hi);
    if (min >= 0 && max < double(entry.bound))
      continue;
    bool usesM = false, usesN = false;
    for (unsigned v : sides[inputA])
      usesM |= entry.row[v] != 0;
    for (unsigned v : sides[inputB])
      usesN |= entry.row[v] != 0;
    if (usesM && usesN) {
      whyNot = "a bound (of " +
               (entry.input ? "input " + std::to_string(*entry.input)
                            : std::string("a constraint")) +
               ") couples an index of M with one of N";
      return std::nullopt;
    }
    ImplicitGemm::Operand &operand = usesN ? gemm.b : gemm.a;
    operand.guards.push_back({toAffine(entry.row), entry.bound});
  }

  // Each flattened dimension outermost first: by decreasing stride in A,
  // then in B, so that the contiguous index is innermost.
  auto flatten = [&](std::vector<unsigned> vars) {
    std::stable_sort(vars.begin(), vars.end(), [&](unsigned x, unsigned y) {
      int64_t ax = std::abs(address[inputA][x]),
              ay = std::abs(address[inputA][y]);
      if (ax != ay)
        return ax > ay;
      return std::abs(address[inputB][x]) > std::abs(address[inputB][y]);
    });
    std::vector<ImplicitGemm::Dim> dims;
    for (unsigned v : vars)
      dims.push_back({v, lo[v], hi[v] - lo[v] + 1});
    return dims;
  };
  gemm.batch = flatten(batchVars);
  gemm.m = flatten(sides[inputA]);
  gemm.n = flatten(sides[inputB]);
  gemm.k = flatten(kVars);
  // Where a guard reads K's innermost index (NCHW's kx), an index that no
  // guard reads and whose range slices split becomes the innermost (NCHW's
  // c): a slice then keeps every other index of K, so that its loads share
  // one decomposition of k and one check of the guards. (A guarded index
  // gives the operand it guards no vectors along it anyway.)
  if (!gemm.k.empty() && isGuarded(gemm, gemm.k.back().var)) {
    auto aligned =
        llvm::find_if(llvm::reverse(gemm.k), [&](const ImplicitGemm::Dim &dim) {
          return alignsSlices(gemm, dim);
        });
    if (aligned != gemm.k.rend())
      std::rotate(std::prev(aligned.base()), aligned.base(), gemm.k.end());
  }
  for (const auto *dims : {&gemm.batch, &gemm.m, &gemm.n, &gemm.k}) {
    double extent = 1;
    for (const ImplicitGemm::Dim &dim : *dims)
      extent *= double(dim.extent);
    if (extent >= double(kMaxFlatExtent)) {
      whyNot = "a flattened dimension has 2^30 or more elements";
      return std::nullopt;
    }
  }
  // A slice is staged along the operand's contiguous index: along M (N)
  // where its innermost index has stride 1, else along K.
  auto alongK = [&](const ImplicitGemm::Operand &operand,
                    const std::vector<ImplicitGemm::Dim> &outer) {
    return operand.address.coeffs[outer.back().var] != 1;
  };
  gemm.aAlongK = alongK(gemm.a, gemm.m);
  gemm.bAlongK = alongK(gemm.b, gemm.n);
  return gemm;
}

static int64_t getExtent(const std::vector<ImplicitGemm::Dim> &dims) {
  int64_t extent = 1;
  for (const ImplicitGemm::Dim &dim : dims)
    extent *= dim.extent;
  return extent;
}

DenseMatmul lowering::getImplicitGemmView(const ImplicitGemm &gemm) {
  DenseMatmul view;
  view.batched = !gemm.batch.empty();
  view.batch = getExtent(gemm.batch);
  view.m = getExtent(gemm.m);
  view.n = getExtent(gemm.n);
  view.k = getExtent(gemm.k);
  view.kBegin = 0;
  // The kernel reads only which side each operand is staged along.
  view.a = {gemm.a.input, 0, 0, gemm.aAlongK ? 0 : 1, gemm.aAlongK ? 1 : 0};
  view.b = {gemm.b.input, 0, 0, gemm.bAlongK ? 0 : 1, gemm.bAlongK ? 1 : 0};
  return view;
}

/// Why one load cannot stage `width` consecutive elements of `operand`
/// along its staged side; empty when it can. The vector runs along the
/// side's innermost index, which has stride 1: it must not cross that
/// index's range (nor so the side's), start aligned in the buffer for every
/// value of the other indices, and no guard may depend on it (checking its
/// first element then checks all).
static std::string getImplicitStageObstacle(
    const ImplicitGemm &gemm, const ImplicitGemm::Operand &operand,
    const std::vector<ImplicitGemm::Dim> &side, int64_t blockSide,
    int64_t blockOther, int64_t threads, int64_t width) {
  std::string w = std::to_string(width);
  if (blockSide % width != 0 || (blockSide * blockOther / width) % threads != 0)
    return "the tile's slice does not split into vectors of " + w +
           " evenly over the work-items";
  const ImplicitGemm::Dim &fast = side.back();
  if (operand.address.coeffs[fast.var] != 1)
    return "it is contiguous along neither M, N nor K";
  if (fast.extent % width != 0)
    return "the range of its contiguous index (" + std::to_string(fast.extent) +
           ") is not a multiple of " + w;
  int64_t first = operand.address.constant;
  for (const auto *dims : {&gemm.batch, &gemm.m, &gemm.n, &gemm.k})
    for (const ImplicitGemm::Dim &dim : *dims) {
      int64_t coeff = operand.address.coeffs[dim.var];
      first += coeff * dim.first;
      if (dim.var != fast.var && coeff % width != 0)
        return "the stride of another index (" + std::to_string(coeff) +
               ") is not a multiple of " + w;
    }
  if (first % width != 0)
    return "its first element is not aligned to " + w;
  if (isReadByGuard(operand, fast.var))
    return "a bound depends on its contiguous index";
  return "";
}

int64_t lowering::getImplicitStageWidth(const ImplicitGemm &gemm, bool isA,
                                        int64_t blockOuter, int64_t blockK,
                                        int64_t threads, int64_t limit,
                                        std::string &why) {
  const ImplicitGemm::Operand &operand = isA ? gemm.a : gemm.b;
  bool alongK = isA ? gemm.aAlongK : gemm.bAlongK;
  const std::vector<ImplicitGemm::Dim> &outer = isA ? gemm.m : gemm.n;
  const std::vector<ImplicitGemm::Dim> &side = alongK ? gemm.k : outer;
  int64_t blockSide = alongK ? blockK : blockOuter;
  int64_t blockOther = alongK ? blockOuter : blockK;
  why.clear();
  for (int64_t width = limit; width > 1; width /= 2) {
    std::string obstacle = getImplicitStageObstacle(
        gemm, operand, side, blockSide, blockOther, threads, width);
    if (obstacle.empty())
      return width;
    if (why.empty() || width == 2)
      why = std::move(obstacle);
  }
  return 1;
}

std::string lowering::describeImplicitGemm(const ImplicitGemm &gemm,
                                           const IndexSystem &system) {
  auto describe = [&](const char *name,
                      const std::vector<ImplicitGemm::Dim> &dims) {
    std::string text = std::string(name) + "=(";
    for (unsigned i = 0; i < dims.size(); ++i)
      text += (i ? ", " : "") + getName(system, dims[i].var);
    return text + ") " + std::to_string(getExtent(dims));
  };
  std::string text = describe("M", gemm.m) + ", " + describe("N", gemm.n) +
                     ", " + describe("K", gemm.k);
  if (!gemm.batch.empty())
    text += ", " + describe("batch", gemm.batch);
  unsigned guardsA = gemm.a.guards.size(), guardsB = gemm.b.guards.size();
  text += "; A is input " + std::to_string(gemm.a.input) + " with " +
          std::to_string(guardsA) + (guardsA == 1 ? " guard" : " guards") +
          ", B input " + std::to_string(gemm.b.input) + " with " +
          std::to_string(guardsB) + (guardsB == 1 ? " guard" : " guards") +
          " (elements that fail one are staged as 0)";
  return text;
}
