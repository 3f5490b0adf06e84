//===- Specializer.h - State of the specialisation of one function -*- C++ -*-//
//
// Private to the Sema library. One Specializer turns one ast::Function plus
// its argument bindings into a Program; its work is split by concept over
// ShapeBinding.cpp (parameters), IndexPolynomials.cpp (affine index
// polynomials and integer size expressions), Contraction.cpp and
// Elementwise.cpp (statements), Inline.cpp (calls) and Specialize.cpp (the
// driver and names).
//
// A call is inlined by a Specializer of its own for the callee, which writes
// into the caller's Program and reports through the caller's Diagnostics; its
// names are its own (parameters bound to the caller's tensors), and every
// tensor it defines gets a prefixed name of the program.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_SEMA_SPECIALIZER_H
#define TILEC_LIB_SEMA_SPECIALIZER_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Diagnostics.h"
#include "tilec/Frontend/Frontend.h"
#include "tilec/Sema/Program.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace sema {

/// Writes `[8, 16]`.
std::string formatShape(const Shape &shape);
/// Writes `f32[8, 16]`.
std::string formatType(DType dtype, const Shape &shape);

/// What every Specializer of one program shares.
struct SpecializationState {
  explicit SpecializationState(llvm::SourceMgr &sourceMgr) : diags(sourceMgr) {}
  Diagnostics diags;
  Program program;
  /// Every tensor name of the program, and every name of the entry
  /// function's source: generated names avoid them.
  llvm::StringSet<> programNames;
};

class Specializer {
public:
  /// Inlining stops with an error beyond this many statements.
  static constexpr size_t kMaxStatements = 100000;
  /// Calls nest at most this deep (each level is a few frames of the
  /// compiler's stack).
  static constexpr unsigned kMaxCallDepth = 256;

  /// The entry function.
  Specializer(const ast::Function &function, llvm::SourceMgr &sourceMgr);
  /// `callee`, inlined into `caller`'s program; the tensors it defines are
  /// named `prefix` + their name.
  Specializer(const ast::Function &callee, Specializer &caller,
              std::string prefix);

  std::optional<Program> run(llvm::ArrayRef<ArgBinding> args);

  // Names (Specialize.cpp). Tensors and dimensions share one namespace of
  // upper-case names.

  /// Reports (with a note at the first definition) when `name` is taken.
  bool checkNewName(llvm::StringRef name, llvm::SMLoc loc);
  /// Adds a tensor to the program and its name to the scope.
  unsigned addTensor(llvm::StringRef name, llvm::SMLoc loc, DType dtype,
                     Shape shape);
  /// Marks `name` as defined by a statement that failed, so that its uses
  /// fail quietly instead of cascading errors.
  void addFailedName(llvm::StringRef name, llvm::SMLoc loc);
  /// The tensor `name` refers to. Reports an error (unless the name's
  /// statement already failed) and returns nullopt otherwise.
  std::optional<unsigned> lookupTensor(llvm::StringRef name, llvm::SMLoc loc);
  /// The value of dimension `name`, if it is one.
  std::optional<int64_t> lookupDim(llvm::StringRef name) const;
  const TensorDecl &getTensor(unsigned index) const {
    return program.tensors[index];
  }
  /// Reports when a shape's element count overflows int64.
  bool checkElementCount(const Shape &shape, llvm::SMLoc loc);
  /// Reports at `loc` when tensor `name` of `dtype` and `shape` has an element
  /// count or a byte size that overflows int64 (no buffer can hold it, and
  /// offsets into it would wrap).
  bool checkTensorSize(llvm::StringRef name, DType dtype, const Shape &shape,
                       llvm::SMLoc loc);

  // Parameters (ShapeBinding.cpp).
  bool bindParams(llvm::ArrayRef<ArgBinding> args);

  // Integer expressions over dimensions and constants (IndexPolynomials.cpp).
  std::optional<int64_t> evaluateInteger(const ast::Expr &expr);

  // Statements (Contraction.cpp, Elementwise.cpp).
  std::optional<Statement>
  specializeContraction(const ast::Statement &statement,
                        const ast::ContractionStmt &contraction);
  std::optional<Statement>
  specializeElementwise(const ast::Statement &statement,
                        const ast::ElementwiseStmt &elementwise);
  /// `output = value;`: an elementwise statement, a reshape or a shape.
  std::optional<Statement> specializeValue(llvm::StringRef output,
                                           llvm::SMLoc loc,
                                           const ast::Expr &value);

  // Temporaries (Elementwise.cpp, Specialize.cpp). Where the language takes
  // a tensor (the first argument of `reshape`, `shape` and `index`) it takes
  // any expression, and `reshape` and `shape` may appear inside
  // expressions: sema gives such a value a statement of its own that
  // defines a temporary tensor, placed before the statement that reads it.

  /// The tensor `expr` names, or a temporary holding `expr`'s value.
  std::optional<unsigned> specializeTensorArgument(const ast::Expr &expr);
  /// Specialises `value` as the statement of a new temporary tensor.
  std::optional<unsigned> addTemporary(const ast::Expr &value);
  /// `TmpN`: a name that no parameter, dimension or statement of the
  /// function uses, so the printed program parses again.
  std::string makeTemporaryName();

  // Calls (Inline.cpp).

  /// True when `expr` calls a function of the program, not a builtin.
  static bool isFunctionCall(const ast::Expr &expr);
  /// The result of a call of a function with one result, inlined; its
  /// result gets a generated name.
  std::optional<unsigned> specializeCall(const ast::Expr &call);

  Diagnostics &getDiags() { return diags; }

private:
  void collectSourceNames();
  /// Specialises every statement of the body into the program.
  void specializeBody();
  /// The name in the program of the tensor this function calls `name`.
  std::string makeProgramName(llvm::StringRef name);

  bool bindParam(const ast::Param &param, const ArgBinding &binding);
  /// Binds integer parameter `param` to `argument`, or to its default when
  /// the call leaves it out (nullopt).
  bool bindIntegerParam(const ast::Param &param,
                        std::optional<int64_t> argument);
  /// Binds `dim` to axis `axis` of `binding`. Errors point at the parameter,
  /// or at `argument` (with a note at the parameter) for a call.
  bool bindDim(const ast::Param &param, const ast::ParamDim &dim,
               const ArgBinding &binding, unsigned axis,
               const ast::Expr *argument = nullptr);
  /// The tensors of the results, in order, into `results`.
  bool bindResults(std::vector<unsigned> &results);

  // Calls (Inline.cpp).

  /// `(outputs...) = call` (or `output = call`): inlines the call with its
  /// results named by the outputs.
  bool specializeCallStatement(llvm::ArrayRef<ast::Result> outputs,
                               const ast::Expr &call);
  /// Inlines `call`. With `resultNames` empty it is a call in an expression
  /// (one result, with a generated name); otherwise it names every result.
  std::optional<std::vector<unsigned>>
  inlineCall(const ast::Expr &call, llvm::ArrayRef<std::string> resultNames);
  const ast::Function *resolveCallee(const ast::Expr &call);
  /// The value a call passes to one parameter.
  struct CallArgument {
    std::optional<unsigned> tensor;
    std::optional<int64_t> integer;
  };
  /// The callee's side: binds the parameters to `args` (the defaults to
  /// those the call leaves out) and specialises the body. Returns the
  /// results' tensors.
  std::optional<std::vector<unsigned>>
  inlineBody(const ast::Expr &call, llvm::ArrayRef<CallArgument> args);
  bool bindArgument(const ast::Param &param, const ast::Expr &argument,
                    unsigned tensor);
  /// Reports two valid tuples of an `=` contraction that write one element,
  /// where sema can prove that some do.
  bool checkAssignConflicts(const ast::Statement &statement,
                            const Contraction &contraction, const Shape &shape);

  /// What an upper-case name stands for.
  struct NameInfo {
    llvm::SMLoc loc;
    /// The tensor, or nullopt for a dimension or a failed statement.
    std::optional<unsigned> tensor;
    std::optional<int64_t> dimValue;
    /// For a dimension: the binding that fixed it, for error messages.
    std::string dimSource;
  };

  /// Null for a callee, which shares its caller's.
  std::unique_ptr<SpecializationState> ownState;
  SpecializationState &state;
  const ast::Function &function;
  Diagnostics &diags;
  Program &program;
  /// Null for the entry function.
  Specializer *caller = nullptr;
  /// Prepended to the names of the tensors a callee defines.
  std::string prefix;
  /// A callee's result name -> the name its caller gives it.
  llvm::StringMap<std::string> resultNames;
  /// Callee name -> how many calls of it this body has inlined.
  llvm::StringMap<unsigned> callCounts;
  llvm::StringMap<NameInfo> names;
  /// Every upper-case name the function defines anywhere.
  llvm::StringSet<> sourceNames;
  unsigned temporaryCount = 0;
};

} // namespace sema
} // namespace tilec

#endif // TILEC_LIB_SEMA_SPECIALIZER_H
