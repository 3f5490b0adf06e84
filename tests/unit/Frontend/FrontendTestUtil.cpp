//===- FrontendTestUtil.cpp - Compiling Tile snippets in tests ------------===//

#include "FrontendTestUtil.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace tilec {
namespace test {

ArgBinding arg(const std::string &name, DType dtype, Shape shape) {
  return ArgBinding{name, dtype, std::move(shape)};
}

TileCompiler::TileCompiler() {
  sourceMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &diag, void *context) {
        llvm::raw_string_ostream os(*static_cast<std::string *>(context));
        diag.print(nullptr, os, /*ShowColors=*/false);
      },
      &diagnostics);
}

const ast::Module *TileCompiler::parse(llvm::StringRef source) {
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, "test.tile"), llvm::SMLoc());
  modules.push_back(parseModule(sourceMgr, bufferId));
  return modules.back().get();
}

std::optional<Program>
TileCompiler::compile(llvm::StringRef source,
                      const std::vector<ArgBinding> &args,
                      llvm::StringRef entry) {
  const ast::Module *module = parse(source);
  if (!module)
    return std::nullopt;
  const ast::Function *function = selectFunction(*module, entry, sourceMgr);
  if (!function)
    return std::nullopt;
  return specialize(*function, args, sourceMgr);
}

std::string printToString(const Program &program) {
  std::string text;
  llvm::raw_string_ostream os(text);
  printProgram(program, os);
  return text;
}

} // namespace test
} // namespace tilec
