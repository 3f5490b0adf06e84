//===- ExprBuilder.cpp - Typed elementwise expressions, built by hand -----===//

#include "ExprBuilder.h"

#include <algorithm>

namespace tilec {
namespace autodiff {

ExprPtr cloneExpr(const Expr &expr) {
  auto copy = std::make_unique<Expr>();
  copy->kind = expr.kind;
  copy->dtype = expr.dtype;
  copy->shape = expr.shape;
  copy->loc = expr.loc;
  copy->constant = expr.constant;
  copy->tensor = expr.tensor;
  copy->axis = expr.axis;
  copy->unaryOp = expr.unaryOp;
  copy->binaryOp = expr.binaryOp;
  copy->builtin = expr.builtin;
  for (const std::unique_ptr<Expr> &operand : expr.operands)
    copy->operands.push_back(cloneExpr(*operand));
  return copy;
}

Statement cloneStatement(const Statement &statement) {
  Statement copy;
  copy.output = statement.output;
  copy.loc = statement.loc;
  if (const auto *elementwise = std::get_if<Elementwise>(&statement.op))
    copy.op = Elementwise{cloneExpr(*elementwise->value)};
  else if (const auto *contraction = std::get_if<Contraction>(&statement.op))
    copy.op = *contraction;
  else if (const auto *reshape = std::get_if<Reshape>(&statement.op))
    copy.op = *reshape;
  else
    copy.op = std::get<ShapeOf>(statement.op);
  return copy;
}

Shape broadcastShapes(const Shape &a, const Shape &b) {
  Shape result(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < result.size(); ++i) {
    int64_t extentA = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t extentB = i < b.size() ? b[b.size() - 1 - i] : 1;
    result[result.size() - 1 - i] = extentA == 1 ? extentB : extentA;
  }
  return result;
}

static ExprPtr makeNode(Expr::Kind kind, DType dtype, Shape shape,
                        std::vector<ExprPtr> operands) {
  auto node = std::make_unique<Expr>();
  node->kind = kind;
  node->dtype = dtype;
  node->shape = std::move(shape);
  node->operands = std::move(operands);
  return node;
}

static std::vector<ExprPtr> operandList(ExprPtr a, ExprPtr b = nullptr,
                                        ExprPtr c = nullptr) {
  std::vector<ExprPtr> operands;
  for (ExprPtr *operand : {&a, &b, &c})
    if (*operand)
      operands.push_back(std::move(*operand));
  return operands;
}

ExprPtr tensorRef(const Program &program, unsigned tensor) {
  const TensorDecl &decl = program.tensors[tensor];
  ExprPtr ref = makeNode(Expr::Kind::Tensor, decl.dtype, decl.shape, {});
  ref->tensor = tensor;
  return ref;
}

ExprPtr floatConstant(double value, DType dtype) {
  ExprPtr constant = makeNode(Expr::Kind::Constant, dtype, {}, {});
  constant->constant = value;
  return constant;
}

ExprPtr negate(ExprPtr operand) {
  DType dtype = operand->dtype;
  Shape shape = operand->shape;
  ExprPtr node = makeNode(Expr::Kind::Unary, dtype, std::move(shape),
                          operandList(std::move(operand)));
  node->unaryOp = UnaryOp::Neg;
  return node;
}

ExprPtr binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  bool comparison = op == BinaryOp::Eq || op == BinaryOp::Ne ||
                    op == BinaryOp::Lt || op == BinaryOp::Gt ||
                    op == BinaryOp::Le || op == BinaryOp::Ge;
  // A literal takes the type of the operand it meets.
  DType dtype = lhs->kind == Expr::Kind::Constant ? rhs->dtype : lhs->dtype;
  Shape shape = broadcastShapes(lhs->shape, rhs->shape);
  ExprPtr node =
      makeNode(Expr::Kind::Binary, comparison ? DType::Bool : dtype,
               std::move(shape), operandList(std::move(lhs), std::move(rhs)));
  node->binaryOp = op;
  return node;
}

ExprPtr call(Builtin builtin, std::vector<ExprPtr> operands) {
  Shape shape;
  DType dtype = operands.front()->dtype;
  for (const ExprPtr &operand : operands) {
    shape = broadcastShapes(shape, operand->shape);
    if (operand->kind != Expr::Kind::Constant)
      dtype = operand->dtype;
  }
  ExprPtr node =
      makeNode(Expr::Kind::Call, dtype, std::move(shape), std::move(operands));
  node->builtin = builtin;
  return node;
}

ExprPtr select(ExprPtr condition, ExprPtr ifTrue, ExprPtr ifFalse) {
  DType dtype =
      ifTrue->kind == Expr::Kind::Constant ? ifFalse->dtype : ifTrue->dtype;
  Shape shape = broadcastShapes(condition->shape,
                                broadcastShapes(ifTrue->shape, ifFalse->shape));
  return makeNode(
      Expr::Kind::Select, dtype, std::move(shape),
      operandList(std::move(condition), std::move(ifTrue), std::move(ifFalse)));
}

ExprPtr castTo(ExprPtr operand, DType dtype) {
  if (operand->dtype == dtype)
    return operand;
  Shape shape = operand->shape;
  return makeNode(Expr::Kind::Cast, dtype, std::move(shape),
                  operandList(std::move(operand)));
}

} // namespace autodiff
} // namespace tilec
