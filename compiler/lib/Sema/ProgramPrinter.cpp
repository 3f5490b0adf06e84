//===- ProgramPrinter.cpp - Canonical Tile source of a Program ------------===//
//
// Writes a specialised program back as Tile source that parses and
// specialises to the same program: parameters carry their integer extents,
// sizes and bounds are integers, polynomials are written term by term in
// index order, every conversion sema made explicit is a cast builtin, and
// operands are parenthesised only where precedence requires.
//
//===----------------------------------------------------------------------===//

#include "Specializer.h"
#include "tilec/Sema/Builtins.h"
#include "tilec/Support/CheckedArithmetic.h"

#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tilec {
namespace {

class ProgramPrinter {
public:
  ProgramPrinter(const Program &program, llvm::raw_ostream &os)
      : program(program), os(os) {}

  void print();

private:
  void printTypeComment(unsigned tensor, llvm::StringRef indent);
  void printStatement(const Statement &statement);
  void printContraction(const Contraction &contraction);
  void printPoly(const AffinePoly &poly,
                 const std::vector<std::string> &indexNames);
  void printAccess(const Access &access,
                   const std::vector<std::string> &indexNames);
  /// Prints `expr`, parenthesised when it binds looser than `precedence`.
  void printExpr(const Expr &expr, unsigned precedence);
  void printConstant(const Expr &expr);
  void printCast(const Expr &expr);
  void printOperands(const Expr &expr);

  const Program &program;
  llvm::raw_ostream &os;
};

} // namespace

/// The precedence of a leaf or a call: above every operator.
static constexpr unsigned kPrimaryPrecedence = ast::kUnaryPrecedence + 1;

void ProgramPrinter::printTypeComment(unsigned tensor, llvm::StringRef indent) {
  const TensorDecl &decl = program.tensors[tensor];
  os << indent << "// " << decl.name << ": "
     << sema::formatType(decl.dtype, decl.shape) << "\n";
}

void ProgramPrinter::print() {
  for (unsigned input : program.inputs)
    printTypeComment(input, "");
  os << "function";
  if (!program.name.empty())
    os << " " << program.name;
  os << " (";
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const TensorDecl &decl = program.tensors[program.inputs[i]];
    os << (i ? ", " : "") << decl.name << "[";
    for (size_t axis = 0; axis < decl.shape.size(); ++axis)
      os << (axis ? ", " : "") << decl.shape[axis];
    os << "]";
  }
  os << ") -> (";
  for (size_t i = 0; i < program.outputs.size(); ++i)
    os << (i ? ", " : "") << program.tensors[program.outputs[i]].name;
  os << ") {\n";
  for (const Statement &statement : program.statements)
    printStatement(statement);
  os << "}\n";
}

void ProgramPrinter::printStatement(const Statement &statement) {
  printTypeComment(statement.output, "  ");
  const TensorDecl &output = program.tensors[statement.output];
  os << "  " << output.name;
  if (const auto *contraction = std::get_if<Contraction>(&statement.op)) {
    os << "[";
    for (size_t i = 0; i < contraction->outputIndices.size(); ++i) {
      os << (i ? ", " : "");
      printPoly(contraction->outputIndices[i], contraction->indexNames);
    }
    if (!output.shape.empty()) {
      os << " : ";
      for (size_t i = 0; i < output.shape.size(); ++i)
        os << (i ? ", " : "") << output.shape[i];
    }
    os << "] = ";
    printContraction(*contraction);
  } else if (const auto *elementwise =
                 std::get_if<Elementwise>(&statement.op)) {
    os << " = ";
    printExpr(*elementwise->value, 0);
  } else if (const auto *reshape = std::get_if<Reshape>(&statement.op)) {
    os << " = reshape(" << program.tensors[reshape->input].name;
    for (int64_t extent : output.shape)
      os << ", " << extent;
    os << ")";
  } else if (const auto *shapeOf = std::get_if<ShapeOf>(&statement.op)) {
    os << " = shape(" << program.tensors[shapeOf->input].name << ")";
  }
  os << ";\n";
}

const char *getAggregationSpelling(AggregationKind aggregation) {
  switch (aggregation) {
  case AggregationKind::Sum:
    return "+";
  case AggregationKind::Product:
    return "*";
  case AggregationKind::Max:
    return ">";
  case AggregationKind::Min:
    return "<";
  case AggregationKind::Assign:
    return "=";
  }
  return "?";
}

static const char *getCombinationSpelling(CombinationKind combination) {
  switch (combination) {
  case CombinationKind::Mul:
    return " * ";
  case CombinationKind::Add:
    return " + ";
  case CombinationKind::Eq:
  case CombinationKind::Cond:
    return " == ";
  case CombinationKind::None:
    break;
  }
  return "";
}

void ProgramPrinter::printContraction(const Contraction &contraction) {
  os << getAggregationSpelling(contraction.aggregation) << "(";
  const std::vector<std::string> &names = contraction.indexNames;
  for (size_t i = 0; i < contraction.operands.size(); ++i) {
    if (i == 1)
      os << getCombinationSpelling(contraction.combination);
    else if (i == 2)
      os << " ? ";
    printAccess(contraction.operands[i], names);
  }
  os << ")";
  for (const Constraint &constraint : contraction.constraints) {
    os << ", ";
    printPoly(constraint.poly, names);
    os << " < " << constraint.bound;
  }
  if (contraction.noDefract)
    os << " no_defract";
  if (contraction.defaultTensor)
    os << " default " << program.tensors[*contraction.defaultTensor].name;
}

void ProgramPrinter::printAccess(const Access &access,
                                 const std::vector<std::string> &indexNames) {
  os << program.tensors[access.tensor].name << "[";
  for (size_t i = 0; i < access.indices.size(); ++i) {
    os << (i ? ", " : "");
    printPoly(access.indices[i], indexNames);
  }
  os << "]";
}

/// Writes |value| * name (name empty for the constant term): `i`, `3*i`,
/// `i/2`, `3*i/4`, `5`, `1/2`.
static void printTerm(llvm::raw_ostream &os, Rational value,
                      llvm::StringRef name) {
  uint64_t absolute = magnitude(value.num);
  if (name.empty())
    os << absolute;
  else if (absolute == 1)
    os << name;
  else
    os << absolute << "*" << name;
  if (!value.isInteger())
    os << "/" << value.den;
}

void ProgramPrinter::printPoly(const AffinePoly &poly,
                               const std::vector<std::string> &indexNames) {
  bool first = true;
  auto printSigned = [&](Rational value, llvm::StringRef name) {
    if (first)
      os << (value.num < 0 ? "-" : "");
    else
      os << (value.num < 0 ? " - " : " + ");
    printTerm(os, value, name);
    first = false;
  };
  for (size_t i = 0; i < poly.coeffs.size(); ++i)
    if (!poly.coeffs[i].isZero())
      printSigned(poly.coeffs[i], indexNames[i]);
  if (first || !poly.constant.isZero())
    printSigned(poly.constant, "");
}

void ProgramPrinter::printConstant(const Expr &expr) {
  if (const auto *value = std::get_if<bool>(&expr.constant)) {
    os << "as_bool(" << (*value ? 1 : 0) << ")";
  } else if (const auto *value = std::get_if<int64_t>(&expr.constant)) {
    os << *value;
  } else if (const auto *value = std::get_if<uint64_t>(&expr.constant)) {
    os << *value;
  } else {
    // The shortest form that reads back as the same double, always with a
    // '.' or an exponent so that it reads back as a float literal.
    double number = std::get<double>(expr.constant);
    char text[32];
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(text, sizeof(text), "%.*g", digits, number);
      if (std::strtod(text, nullptr) == number)
        break;
    }
    llvm::StringRef spelling(text);
    os << spelling;
    if (spelling.find_first_of(".e") == llvm::StringRef::npos)
      os << ".0";
  }
}

void ProgramPrinter::printCast(const Expr &expr) {
  const Expr &operand = *expr.operands[0];
  DType dtype = expr.dtype;
  if (dtype == DType::Bool || dtype == DType::BF16) {
    os << (dtype == DType::Bool ? "as_bool(" : "as_bf16(");
    printExpr(operand, 0);
    os << ")";
    return;
  }
  os << (isFloat(dtype)       ? "as_float("
         : isSignedInt(dtype) ? "as_int("
                              : "as_uint(");
  printExpr(operand, 0);
  os << ", " << dtypeBits(dtype) << ")";
}

void ProgramPrinter::printOperands(const Expr &expr) {
  os << "(";
  for (size_t i = 0; i < expr.operands.size(); ++i) {
    os << (i ? ", " : "");
    printExpr(*expr.operands[i], 0);
  }
  os << ")";
}

/// A negative constant prints with a leading '-', like a unary operator.
static bool isNegativeConstant(const Expr &expr) {
  if (expr.kind != Expr::Kind::Constant)
    return false;
  if (const auto *value = std::get_if<int64_t>(&expr.constant))
    return *value < 0;
  if (const auto *value = std::get_if<double>(&expr.constant))
    return std::signbit(*value);
  return false;
}

void ProgramPrinter::printExpr(const Expr &expr, unsigned precedence) {
  unsigned own = kPrimaryPrecedence;
  if (expr.kind == Expr::Kind::Binary)
    own = ast::getPrecedence(expr.binaryOp);
  else if (expr.kind == Expr::Kind::Unary || isNegativeConstant(expr))
    own = ast::kUnaryPrecedence;
  bool parenthesize = own < precedence;
  if (parenthesize)
    os << "(";
  switch (expr.kind) {
  case Expr::Kind::Constant:
    printConstant(expr);
    break;
  case Expr::Kind::Tensor:
    os << program.tensors[expr.tensor].name;
    break;
  case Expr::Kind::Index:
    os << "index(" << program.tensors[expr.tensor].name << ", " << expr.axis
       << ")";
    break;
  case Expr::Kind::Unary:
    os << ast::getSpelling(expr.unaryOp);
    printExpr(*expr.operands[0], ast::kUnaryPrecedence);
    break;
  case Expr::Kind::Binary:
    // Left-associative: the right operand must bind tighter.
    printExpr(*expr.operands[0], own);
    os << " " << ast::getSpelling(expr.binaryOp) << " ";
    printExpr(*expr.operands[1], own + 1);
    break;
  case Expr::Kind::Select:
    os << kSelectName;
    printOperands(expr);
    break;
  case Expr::Kind::Call:
    os << getBuiltinInfo(expr.builtin).name;
    printOperands(expr);
    break;
  case Expr::Kind::Cast:
    printCast(expr);
    break;
  }
  if (parenthesize)
    os << ")";
}

void printProgram(const Program &program, llvm::raw_ostream &os) {
  ProgramPrinter(program, os).print();
}

} // namespace tilec
