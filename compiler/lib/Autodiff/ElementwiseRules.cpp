//===- ElementwiseRules.cpp - Derivatives of elementwise statements -------===//
//
// An elementwise statement is one expression tree. Its cotangent enters at the
// root and moves down to the leaves by the chain rule, one node at a time;
// a tensor leaf receives what reaches it, summed over the dimensions it was
// broadcast along. A rule that needs the value of a node recomputes it from
// a copy of the node (or reads the statement's output, for the root), and
// the fuser puts the copies back into one kernel.
//
// Where a derivative is zero almost everywhere (floor, ceil, round, sign,
// comparisons, casts from integers) nothing is sent. Ties of min and max
// split the cotangent equally, as PyTorch's minimum and maximum do.
//
//===----------------------------------------------------------------------===//

#include "GradientBuilder.h"

#include <cmath>

using namespace llvm;

namespace tilec {
namespace autodiff {
namespace {

class ElementwiseGradient {
public:
  ElementwiseGradient(GradientBuilder &builder, const Statement &statement)
      : builder(builder), root(*std::get<Elementwise>(statement.op).value),
        output(statement.output), loc(statement.loc) {}

  void propagate(const Expr &node, ExprPtr adjoint);

private:
  void propagateBinary(const Expr &node, ExprPtr adjoint);
  void propagateCall(const Expr &node, ExprPtr adjoint);
  void propagateMinMax(const Expr &node, ExprPtr adjoint, BinaryOp wins);

  /// Sends `adjoint` (of the node's shape) to `operand`, summed over the
  /// dimensions the operand was broadcast along.
  void send(const Expr &operand, ExprPtr adjoint) {
    if (!builder.isVaried(operand))
      return;
    propagate(operand,
              builder.unbroadcast(std::move(adjoint), operand.shape, loc));
  }
  /// The adjoint, made a tensor when more than one operand reads it.
  ExprPtr reuse(const Expr &node, ExprPtr &adjoint) {
    unsigned readers = 0;
    for (const std::unique_ptr<Expr> &operand : node.operands)
      readers += builder.isVaried(*operand);
    return readers > 1 ? builder.share(adjoint, loc) : cloneExpr(*adjoint);
  }
  /// The value of `node`: the statement's output for the root.
  ExprPtr value(const Expr &node) const {
    return &node == &root ? builder.ref(output) : cloneExpr(node);
  }
  static ExprPtr constant(double number, const Expr &like) {
    return floatConstant(number, like.dtype);
  }

  GradientBuilder &builder;
  const Expr &root;
  unsigned output;
  SMLoc loc;
};

} // namespace

void ElementwiseGradient::propagate(const Expr &node, ExprPtr adjoint) {
  switch (node.kind) {
  case Expr::Kind::Tensor:
    builder.contribute(node.tensor, std::move(adjoint), loc);
    return;
  case Expr::Kind::Constant:
  case Expr::Kind::Index:
    return;
  case Expr::Kind::Unary:
    if (node.unaryOp == UnaryOp::Neg && isFloat(node.dtype))
      send(*node.operands[0], negate(std::move(adjoint)));
    return;
  case Expr::Kind::Binary:
    if (isFloat(node.dtype))
      propagateBinary(node, std::move(adjoint));
    return;
  case Expr::Kind::Select: {
    if (!isFloat(node.dtype))
      return;
    ExprPtr shared = reuse(node, adjoint);
    const Expr &condition = *node.operands[0];
    send(*node.operands[1],
         select(cloneExpr(condition), cloneExpr(*shared), constant(0, node)));
    send(*node.operands[2],
         select(cloneExpr(condition), constant(0, node), std::move(shared)));
    return;
  }
  case Expr::Kind::Cast: {
    // Casts between floats pass the cotangent on in the operand's type; an
    // integer operand has none.
    const Expr &operand = *node.operands[0];
    if (isFloat(node.dtype) && isFloat(operand.dtype))
      send(operand, castTo(std::move(adjoint), operand.dtype));
    return;
  }
  case Expr::Kind::Call:
    if (isFloat(node.dtype))
      propagateCall(node, std::move(adjoint));
    return;
  }
}

void ElementwiseGradient::propagateBinary(const Expr &node, ExprPtr adjoint) {
  const Expr &lhs = *node.operands[0];
  const Expr &rhs = *node.operands[1];
  ExprPtr shared = reuse(node, adjoint);
  switch (node.binaryOp) {
  case BinaryOp::Add:
    send(lhs, cloneExpr(*shared));
    send(rhs, std::move(shared));
    return;
  case BinaryOp::Sub:
    send(lhs, cloneExpr(*shared));
    send(rhs, negate(std::move(shared)));
    return;
  case BinaryOp::Mul:
    send(lhs, mul(cloneExpr(*shared), value(rhs)));
    send(rhs, mul(value(lhs), std::move(shared)));
    return;
  case BinaryOp::Div:
    // d(a/b)/db = -(a/b)/b.
    send(lhs, div(cloneExpr(*shared), value(rhs)));
    send(rhs, negate(div(mul(std::move(shared), value(node)), value(rhs))));
    return;
  default:
    // Float comparisons and logic produce bools: no cotangent.
    return;
  }
}

void ElementwiseGradient::propagateMinMax(const Expr &node, ExprPtr adjoint,
                                          BinaryOp wins) {
  // The winner takes the cotangent; on a tie each operand takes half.
  ExprPtr shared = reuse(node, adjoint);
  for (unsigned side = 0; side < 2; ++side) {
    const Expr &self = *node.operands[side];
    const Expr &other = *node.operands[1 - side];
    ExprPtr half = mul(cloneExpr(*shared), constant(0.5, node));
    ExprPtr tie = select(binary(BinaryOp::Eq, value(self), value(other)),
                         std::move(half), constant(0, node));
    send(self, select(binary(wins, value(self), value(other)),
                      cloneExpr(*shared), std::move(tie)));
  }
}

void ElementwiseGradient::propagateCall(const Expr &node, ExprPtr adjoint) {
  const Expr &x = *node.operands[0];
  auto one = [&] { return constant(1, node); };
  auto square = [&](const Expr &operand) {
    return mul(value(operand), value(operand));
  };
  switch (node.builtin) {
  case Builtin::Exp:
    send(x, mul(std::move(adjoint), value(node)));
    return;
  case Builtin::Log:
    send(x, div(std::move(adjoint), value(x)));
    return;
  case Builtin::Sqrt:
    send(x, mul(div(std::move(adjoint), value(node)), constant(0.5, node)));
    return;
  case Builtin::Rsqrt:
    // d(x^-1/2)/dx = -rsqrt(x) / (2x).
    send(x, negate(mul(div(mul(std::move(adjoint), value(node)), value(x)),
                       constant(0.5, node))));
    return;
  case Builtin::Pow: {
    const Expr &exponent = *node.operands[1];
    ExprPtr shared = reuse(node, adjoint);
    std::vector<ExprPtr> lowered;
    lowered.push_back(value(x));
    lowered.push_back(binary(BinaryOp::Sub, value(exponent), one()));
    send(x, mul(mul(cloneExpr(*shared), value(exponent)),
                call(Builtin::Pow, std::move(lowered))));
    std::vector<ExprPtr> base;
    base.push_back(value(x));
    send(exponent, mul(mul(std::move(shared), value(node)),
                       call(Builtin::Log, std::move(base))));
    return;
  }
  case Builtin::Sin:
  case Builtin::Cos:
  case Builtin::Sinh:
  case Builtin::Cosh: {
    static const std::pair<Builtin, Builtin> derivatives[] = {
        {Builtin::Sin, Builtin::Cos},
        {Builtin::Cos, Builtin::Sin},
        {Builtin::Sinh, Builtin::Cosh},
        {Builtin::Cosh, Builtin::Sinh}};
    Builtin derivative = Builtin::Cos;
    for (const auto &[function, itsDerivative] : derivatives)
      if (function == node.builtin)
        derivative = itsDerivative;
    std::vector<ExprPtr> operands;
    operands.push_back(value(x));
    ExprPtr result =
        mul(std::move(adjoint), call(derivative, std::move(operands)));
    // d(cos x)/dx = -sin x.
    send(x, node.builtin == Builtin::Cos ? negate(std::move(result))
                                         : std::move(result));
    return;
  }
  case Builtin::Tan: {
    std::vector<ExprPtr> operand;
    operand.push_back(value(x));
    ExprPtr cosine = call(Builtin::Cos, std::move(operand));
    ExprPtr cosineCopy = cloneExpr(*cosine);
    send(x, div(std::move(adjoint),
                mul(std::move(cosine), std::move(cosineCopy))));
    return;
  }
  case Builtin::Tanh:
    send(x,
         mul(std::move(adjoint), binary(BinaryOp::Sub, one(), square(node))));
    return;
  case Builtin::Asin:
  case Builtin::Acos: {
    std::vector<ExprPtr> operand;
    operand.push_back(binary(BinaryOp::Sub, one(), square(x)));
    ExprPtr result =
        mul(std::move(adjoint), call(Builtin::Rsqrt, std::move(operand)));
    send(x, node.builtin == Builtin::Acos ? negate(std::move(result))
                                          : std::move(result));
    return;
  }
  case Builtin::Atan:
    send(x, div(std::move(adjoint), binary(BinaryOp::Add, one(), square(x))));
    return;
  case Builtin::Atan2: {
    // atan2(y, x): d/dy = x / (x^2 + y^2), d/dx = -y / (x^2 + y^2).
    const Expr &y = x;
    const Expr &xArg = *node.operands[1];
    ExprPtr shared = reuse(node, adjoint);
    auto radius = [&] {
      return binary(BinaryOp::Add, square(y), square(xArg));
    };
    send(y, div(mul(cloneExpr(*shared), value(xArg)), radius()));
    send(xArg, negate(div(mul(std::move(shared), value(y)), radius())));
    return;
  }
  case Builtin::Erf: {
    // d(erf x)/dx = 2/sqrt(pi) * exp(-x^2).
    std::vector<ExprPtr> operand;
    operand.push_back(negate(square(x)));
    send(x, mul(mul(std::move(adjoint), constant(2 / std::sqrt(M_PI), node)),
                call(Builtin::Exp, std::move(operand))));
    return;
  }
  case Builtin::Abs: {
    std::vector<ExprPtr> operand;
    operand.push_back(value(x));
    send(x, mul(std::move(adjoint), call(Builtin::Sign, std::move(operand))));
    return;
  }
  case Builtin::Relu:
    send(x, select(binary(BinaryOp::Gt, value(x), constant(0, node)),
                   std::move(adjoint), constant(0, node)));
    return;
  case Builtin::Sigmoid:
    send(x, mul(mul(std::move(adjoint), value(node)),
                binary(BinaryOp::Sub, one(), value(node))));
    return;
  case Builtin::Min:
    propagateMinMax(node, std::move(adjoint), BinaryOp::Lt);
    return;
  case Builtin::Max:
    propagateMinMax(node, std::move(adjoint), BinaryOp::Gt);
    return;
  case Builtin::Floor:
  case Builtin::Ceil:
  case Builtin::Round:
  case Builtin::Sign:
    return; // Piecewise constant: zero almost everywhere.
  }
}

bool GradientBuilder::differentiateElementwise(const Statement &statement,
                                               unsigned cotangent) {
  ElementwiseGradient gradient(*this, statement);
  gradient.propagate(*std::get<Elementwise>(statement.op).value,
                     ref(cotangent));
  return true;
}

} // namespace autodiff
} // namespace tilec
