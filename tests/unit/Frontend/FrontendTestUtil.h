//===- FrontendTestUtil.h - Compiling Tile snippets in tests ----*- C++ -*-===//
//
// Parses and specialises a source string with a SourceMgr whose diagnostics
// are captured as text ("test.tile:3:5: error: ..."), so tests can assert on
// messages and locations.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TESTS_UNIT_FRONTEND_FRONTENDTESTUTIL_H
#define TILEC_TESTS_UNIT_FRONTEND_FRONTENDTESTUTIL_H

#include "tilec/Frontend/AST.h"
#include "tilec/Frontend/Frontend.h"

#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tilec {
namespace test {

ArgBinding arg(const std::string &name, DType dtype, Shape shape);

class TileCompiler {
public:
  TileCompiler();

  /// Adds `source` as buffer "test.tile" and parses it.
  const ast::Module *parse(llvm::StringRef source);
  /// parse + selectFunction + specialize.
  std::optional<Program> compile(llvm::StringRef source,
                                 const std::vector<ArgBinding> &args,
                                 llvm::StringRef entry = "");
  /// Everything reported so far.
  const std::string &getDiagnostics() const { return diagnostics; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  llvm::SourceMgr sourceMgr;
  std::string diagnostics;
  std::vector<std::unique_ptr<ast::Module>> modules;
};

/// printProgram into a string.
std::string printToString(const Program &program);

} // namespace test
} // namespace tilec

#endif // TILEC_TESTS_UNIT_FRONTEND_FRONTENDTESTUTIL_H
