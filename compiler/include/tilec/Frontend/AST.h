//===- AST.h - Syntax tree of Tile source -----------------------*- C++ -*-===//
//
// What the parser produces: the program as written, with a source location on
// every node so that sema can point its diagnostics at the construct at fault.
// Names are kept as written; whether a name denotes a tensor, a dimension or
// an index variable is decided by sema from its case and its definitions.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_FRONTEND_AST_H
#define TILEC_FRONTEND_AST_H

#include "tilec/Sema/Program.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tilec {
namespace ast {

/// PlaidML's rule: a name with an upper-case initial is a tensor or a
/// dimension; anything else (lower case, `_`) is an index variable.
bool isUpperCaseName(llvm::StringRef name);

/// How a binary operator binds (higher binds tighter; `||` is 1, `*` is 10)
/// and how an operator is written.
unsigned getPrecedence(BinaryOp op);
const char *getSpelling(BinaryOp op);
const char *getSpelling(UnaryOp op);
/// The precedence of unary operators, above every binary operator.
constexpr unsigned kUnaryPrecedence = 11;

/// One expression node. The same node kinds serve index polynomials, output
/// sizes, constraints and elementwise expressions; sema checks which kinds
/// each context admits.
struct Expr {
  enum class Kind {
    IntLiteral,   // `intValue` (non-negative; `-` is a Unary node)
    FloatLiteral, // `floatValue`
    Name,         // `name`
    Access,       // `name[operands...]`
    Unary,        // `unaryOp` operands[0]
    Binary,       // operands[0] `binaryOp` operands[1]
    Conditional,  // operands[0] ? operands[1] : operands[2]
    Call,         // `name(operands...)`
  };

  Kind kind = Kind::IntLiteral;
  llvm::SMLoc loc;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string name;
  UnaryOp unaryOp = UnaryOp::Neg;
  BinaryOp binaryOp = BinaryOp::Add;
  std::vector<std::unique_ptr<Expr>> operands;
  /// The height of the tree rooted here (1 for a leaf); the parser bounds it
  /// so that every recursive walk of a tree has bounded depth.
  unsigned height = 1;
};
using ExprPtr = std::unique_ptr<Expr>;

/// `T[indices...]` inside a contraction.
struct TensorAccess {
  std::string tensor;
  llvm::SMLoc loc;
  std::vector<ExprPtr> indices;
};

/// `, poly < bound`.
struct ConstraintClause {
  ExprPtr poly;
  ExprPtr bound;
  llvm::SMLoc loc;
};

/// `O[indices : sizes] = AGG(operands) constraints [no_defract] [default D]`.
struct ContractionStmt {
  std::vector<ExprPtr> outputIndices;
  std::vector<ExprPtr> outputSizes;
  AggregationKind aggregation = AggregationKind::Sum;
  CombinationKind combination = CombinationKind::None;
  llvm::SMLoc combinationLoc;
  std::vector<TensorAccess> operands;
  std::vector<ConstraintClause> constraints;
  bool noDefract = false;
  std::optional<std::string> defaultTensor;
  llvm::SMLoc defaultLoc;
};

/// `O = expr`.
struct ElementwiseStmt {
  ExprPtr value;
};

struct Result {
  std::string name;
  llvm::SMLoc loc;
};

/// `(A, B, ...) = f(args...)`: one name per result of the callee.
struct CallStmt {
  std::vector<Result> outputs;
  /// A Call node.
  ExprPtr call;
};

struct Statement {
  /// The name this statement defines (the first of a CallStmt's), and where.
  std::string output;
  llvm::SMLoc loc;
  std::variant<ContractionStmt, ElementwiseStmt, CallStmt> body;
};

/// One dimension of a parameter: a name, or an integer literal (a checked
/// constraint, as the printer writes specialised parameters).
struct ParamDim {
  std::optional<std::string> name;
  int64_t value = 0;
  llvm::SMLoc loc;
};

struct Param {
  std::string name;
  llvm::SMLoc loc;
  /// nullopt for a parameter written without brackets.
  std::optional<std::vector<ParamDim>> dims;
  /// `Name: int`: a dimension name whose value the call gives
  /// (docs/language.md, section 8), not a tensor.
  bool isInteger = false;
  /// `= expr` after an integer parameter; null without a default.
  std::unique_ptr<Expr> defaultValue;
};

class Module;

class Function {
public:
  /// Empty when the function is anonymous.
  std::string name;
  /// The `function` keyword.
  llvm::SMLoc loc;
  std::vector<Param> params;
  std::vector<Result> results;
  std::vector<Statement> statements;
  /// The program this function belongs to, where its calls are resolved;
  /// set by parseModule.
  const Module *module = nullptr;
};

/// `import "path";`.
struct Import {
  /// Without the quotes.
  std::string path;
  llvm::SMLoc loc;
};

/// A parsed file with the files it imports.
class Module {
public:
  /// The functions of the main file, in source order.
  std::vector<std::unique_ptr<Function>> functions;
  /// The imports of this file.
  std::vector<Import> imports;
  /// The functions of every file imported, directly or not.
  std::vector<std::unique_ptr<Function>> importedFunctions;
  /// The start of the buffer, for errors about the module as a whole.
  llvm::SMLoc loc;

  /// Every function of the program named `name`: of the main file, then of
  /// the imported files.
  std::vector<const Function *> findFunctions(llvm::StringRef name) const;
};

} // namespace ast
} // namespace tilec

#endif // TILEC_FRONTEND_AST_H
