//===- ProgramBuilder.cpp - Specialised programs built by hand ------------===//

#include "ProgramBuilder.h"

#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <numeric>

using namespace tilec;
using namespace tilec::testing;

namespace {

Rational makeRational(int64_t num, int64_t den) {
  if (den < 0) {
    num = -num;
    den = -den;
  }
  int64_t divisor = std::gcd(num, den);
  return {num / divisor, den / divisor};
}

Rational addRationals(Rational a, Rational b) {
  return makeRational(a.num * b.den + b.num * a.den, a.den * b.den);
}

/// A recursive-descent reader of "term (+|- term)*" where a term is atoms
/// joined by * and /, at most one of them an index name.
class PolyReader {
public:
  PolyReader(const std::string &text, const std::vector<std::string> &names)
      : text(text), names(names) {}

  std::vector<AffinePoly> readList() {
    std::vector<AffinePoly> polys;
    skipSpaces();
    if (pos == text.size())
      return polys;
    polys.push_back(readPoly());
    while (consume(','))
      polys.push_back(readPoly());
    return polys;
  }

private:
  AffinePoly readPoly() {
    AffinePoly poly;
    poly.coeffs.assign(names.size(), Rational());
    int64_t sign = consume('-') ? -1 : 1;
    for (;;) {
      readTerm(poly, sign);
      if (consume('+'))
        sign = 1;
      else if (consume('-'))
        sign = -1;
      else
        return poly;
    }
  }

  void readTerm(AffinePoly &poly, int64_t sign) {
    Rational coeff = makeRational(sign, 1);
    int index = -1;
    bool divide = false;
    for (;;) {
      skipSpaces();
      if (std::isdigit(text[pos])) {
        int64_t value = 0;
        while (pos < text.size() && std::isdigit(text[pos]))
          value = value * 10 + (text[pos++] - '0');
        coeff = divide ? makeRational(coeff.num, coeff.den * value)
                       : makeRational(coeff.num * value, coeff.den);
      } else {
        size_t start = pos;
        while (pos < text.size() && std::isalnum(text[pos]))
          ++pos;
        std::string name = text.substr(start, pos - start);
        for (size_t k = 0; k < names.size(); ++k)
          if (names[k] == name)
            index = k;
      }
      if (consume('*'))
        divide = false;
      else if (consume('/'))
        divide = true;
      else
        break;
    }
    if (index < 0)
      poly.constant = addRationals(poly.constant, coeff);
    else
      poly.coeffs[index] = addRationals(poly.coeffs[index], coeff);
  }

  bool consume(char c) {
    skipSpaces();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }

  void skipSpaces() {
    while (pos < text.size() && text[pos] == ' ')
      ++pos;
  }

  const std::string &text;
  const std::vector<std::string> &names;
  size_t pos = 0;
};

std::unique_ptr<Expr> makeNode(Expr::Kind kind, DType dtype, Shape shape) {
  auto expr = std::make_unique<Expr>();
  expr->kind = kind;
  expr->dtype = dtype;
  expr->shape = std::move(shape);
  return expr;
}

Shape broadcastShapes(const Shape &a, const Shape &b) {
  const Shape &longer = a.size() >= b.size() ? a : b;
  const Shape &shorter = a.size() >= b.size() ? b : a;
  Shape result = longer;
  size_t leading = longer.size() - shorter.size();
  for (size_t d = 0; d < shorter.size(); ++d)
    if (result[leading + d] == 1)
      result[leading + d] = shorter[d];
  return result;
}

bool isPredicate(BinaryOp op) {
  switch (op) {
  case BinaryOp::Eq:
  case BinaryOp::Ne:
  case BinaryOp::Lt:
  case BinaryOp::Gt:
  case BinaryOp::Le:
  case BinaryOp::Ge:
  case BinaryOp::LogicalAnd:
  case BinaryOp::LogicalOr:
    return true;
  default:
    return false;
  }
}

} // namespace

std::vector<AffinePoly>
testing::parsePolys(const std::string &text,
                    const std::vector<std::string> &indexNames) {
  return PolyReader(text, indexNames).readList();
}

unsigned ProgramBuilder::input(const std::string &name, DType dtype,
                               Shape shape) {
  unsigned id = tensor(name, dtype, std::move(shape));
  program.tensors[id].isInput = true;
  program.inputs.push_back(id);
  return id;
}

unsigned ProgramBuilder::tensor(const std::string &name, DType dtype,
                                Shape shape) {
  TensorDecl decl;
  decl.name = name;
  decl.dtype = dtype;
  decl.shape = std::move(shape);
  program.tensors.push_back(std::move(decl));
  return program.tensors.size() - 1;
}

Contraction &ProgramBuilder::contraction(
    unsigned result, const std::vector<std::string> &indexNames,
    const std::string &outputIndices, AggregationKind aggregation,
    CombinationKind combination, const std::vector<AccessSpec> &operands,
    const std::vector<std::pair<std::string, int64_t>> &constraints) {
  Contraction op;
  op.indexNames = indexNames;
  op.outputIndices = parsePolys(outputIndices, indexNames);
  op.aggregation = aggregation;
  op.combination = combination;
  for (const AccessSpec &spec : operands) {
    Access access;
    access.tensor = spec.tensor;
    access.indices = parsePolys(spec.indices, indexNames);
    op.operands.push_back(std::move(access));
  }
  for (const auto &[poly, bound] : constraints) {
    Constraint constraint;
    constraint.poly = parsePolys(poly, indexNames).front();
    constraint.bound = bound;
    op.constraints.push_back(std::move(constraint));
  }
  Statement statement;
  statement.output = result;
  statement.op = std::move(op);
  program.statements.push_back(std::move(statement));
  return std::get<Contraction>(program.statements.back().op);
}

void ProgramBuilder::elementwise(unsigned result, std::unique_ptr<Expr> value) {
  Statement statement;
  statement.output = result;
  statement.op = Elementwise{std::move(value)};
  program.statements.push_back(std::move(statement));
}

void ProgramBuilder::reshape(unsigned result, unsigned input) {
  Statement statement;
  statement.output = result;
  statement.op = Reshape{input};
  program.statements.push_back(std::move(statement));
}

void ProgramBuilder::shapeOf(unsigned result, unsigned input) {
  Statement statement;
  statement.output = result;
  statement.op = ShapeOf{input};
  program.statements.push_back(std::move(statement));
}

std::unique_ptr<Expr> testing::constant(ConstantValue value, DType dtype) {
  auto expr = makeNode(Expr::Kind::Constant, dtype, {});
  expr->constant = value;
  return expr;
}

std::unique_ptr<Expr> testing::tensorRef(const Program &program, unsigned id) {
  const TensorDecl &decl = program.tensors[id];
  auto expr = makeNode(Expr::Kind::Tensor, decl.dtype, decl.shape);
  expr->tensor = id;
  return expr;
}

std::unique_ptr<Expr> testing::indexOf(const Program &program, unsigned id,
                                       unsigned axis) {
  auto expr =
      makeNode(Expr::Kind::Index, DType::I32, program.tensors[id].shape);
  expr->tensor = id;
  expr->axis = axis;
  return expr;
}

std::unique_ptr<Expr> testing::unary(UnaryOp op,
                                     std::unique_ptr<Expr> operand) {
  DType dtype = op == UnaryOp::LogicalNot ? DType::Bool : operand->dtype;
  auto expr = makeNode(Expr::Kind::Unary, dtype, operand->shape);
  expr->unaryOp = op;
  expr->operands.push_back(std::move(operand));
  return expr;
}

std::unique_ptr<Expr> testing::binary(BinaryOp op, std::unique_ptr<Expr> lhs,
                                      std::unique_ptr<Expr> rhs) {
  DType dtype = isPredicate(op) ? DType::Bool : lhs->dtype;
  auto expr = makeNode(Expr::Kind::Binary, dtype,
                       broadcastShapes(lhs->shape, rhs->shape));
  expr->binaryOp = op;
  expr->operands.push_back(std::move(lhs));
  expr->operands.push_back(std::move(rhs));
  return expr;
}

std::unique_ptr<Expr> testing::call(Builtin fn,
                                    std::vector<std::unique_ptr<Expr>> args) {
  Shape shape;
  for (const auto &arg : args)
    shape = broadcastShapes(shape, arg->shape);
  auto expr = makeNode(Expr::Kind::Call, args[0]->dtype, shape);
  expr->builtin = fn;
  expr->operands = std::move(args);
  return expr;
}

std::unique_ptr<Expr> testing::select(std::unique_ptr<Expr> cond,
                                      std::unique_ptr<Expr> lhs,
                                      std::unique_ptr<Expr> rhs) {
  Shape shape =
      broadcastShapes(broadcastShapes(cond->shape, lhs->shape), rhs->shape);
  auto expr = makeNode(Expr::Kind::Select, lhs->dtype, shape);
  expr->operands.push_back(std::move(cond));
  expr->operands.push_back(std::move(lhs));
  expr->operands.push_back(std::move(rhs));
  return expr;
}

std::unique_ptr<Expr> testing::cast(std::unique_ptr<Expr> operand,
                                    DType dtype) {
  auto expr = makeNode(Expr::Kind::Cast, dtype, operand->shape);
  expr->operands.push_back(std::move(operand));
  return expr;
}

HostTensor testing::makeTensor(DType dtype, Shape shape,
                               const std::vector<double> &values) {
  HostTensor tensor(dtype, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i)
    tensor.setDouble(i, values[i]);
  return tensor;
}

std::vector<double> testing::elements(const HostTensor &tensor) {
  std::vector<double> values;
  for (int64_t i = 0; i < tensor.numElements(); ++i)
    values.push_back(tensor.getDouble(i));
  return values;
}

void testing::captureDiagnostics(llvm::SourceMgr &sourceMgr,
                                 std::string &diagnostics) {
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diagnostic, void *context) {
        llvm::raw_string_ostream os(*static_cast<std::string *>(context));
        diagnostic.print("", os, /*ShowColors=*/false);
      },
      &diagnostics);
}

RunResult testing::run(const Program &program,
                       const std::vector<HostTensor> &inputs) {
  RunResult result;
  llvm::SourceMgr sourceMgr;
  captureDiagnostics(sourceMgr, result.diagnostics);
  result.outputs = interpret(program, inputs, sourceMgr);
  return result;
}
