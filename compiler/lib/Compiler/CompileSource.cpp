//===- CompileSource.cpp - From Tile source text to a bundle --------------===//

#include "tilec/Compiler/CompileSource.h"

#include "llvm/Support/SourceMgr.h"

namespace tilec {

std::optional<ParsedEntry>
parseEntry(std::unique_ptr<llvm::MemoryBuffer> source, llvm::StringRef entry,
           llvm::SourceMgr &sourceMgr) {
  unsigned bufferId =
      sourceMgr.AddNewSourceBuffer(std::move(source), llvm::SMLoc());
  ParsedEntry parsed;
  parsed.module = parseModule(sourceMgr, bufferId);
  if (!parsed.module)
    return std::nullopt;
  parsed.function = selectFunction(*parsed.module, entry, sourceMgr);
  if (!parsed.function)
    return std::nullopt;
  return parsed;
}

std::optional<Program>
specializeSource(std::unique_ptr<llvm::MemoryBuffer> source,
                 llvm::StringRef entry, BindEntry bind,
                 llvm::SourceMgr &sourceMgr) {
  std::optional<ParsedEntry> parsed =
      parseEntry(std::move(source), entry, sourceMgr);
  if (!parsed)
    return std::nullopt;
  std::optional<std::vector<ArgBinding>> bindings = bind(*parsed->function);
  if (!bindings)
    return std::nullopt;
  return specialize(*parsed->function, *bindings, sourceMgr);
}

std::optional<Program>
specializeSource(std::unique_ptr<llvm::MemoryBuffer> source,
                 llvm::StringRef entry, llvm::ArrayRef<ArgBinding> bindings,
                 llvm::SourceMgr &sourceMgr) {
  return specializeSource(
      std::move(source), entry,
      [&](const ast::Function &) {
        return std::optional<std::vector<ArgBinding>>(
            std::vector<ArgBinding>(bindings.begin(), bindings.end()));
      },
      sourceMgr);
}

std::optional<CompiledSource>
compileSource(std::unique_ptr<llvm::MemoryBuffer> source, llvm::StringRef entry,
              BindEntry bind, ChooseProfile chooseProfile,
              const CompileTargets &targets, llvm::SourceMgr &sourceMgr,
              const PipelineHooks &hooks) {
  std::optional<Program> program =
      specializeSource(std::move(source), entry, bind, sourceMgr);
  if (!program)
    return std::nullopt;
  std::optional<DeviceProfile> profile = chooseProfile(*program);
  if (!profile)
    return std::nullopt;
  std::optional<Bundle> bundle =
      compileProgram(*program, *profile, sourceMgr, targets, hooks);
  if (!bundle)
    return std::nullopt;
  return CompiledSource{std::move(*program), std::move(*bundle)};
}

std::optional<Bundle>
compileSource(std::unique_ptr<llvm::MemoryBuffer> source, llvm::StringRef entry,
              llvm::ArrayRef<ArgBinding> bindings, const DeviceProfile &profile,
              const CompileTargets &targets, llvm::SourceMgr &sourceMgr) {
  std::optional<CompiledSource> compiled = compileSource(
      std::move(source), entry,
      [&](const ast::Function &) {
        return std::optional<std::vector<ArgBinding>>(
            std::vector<ArgBinding>(bindings.begin(), bindings.end()));
      },
      [&](const Program &) { return std::optional<DeviceProfile>(profile); },
      targets, sourceMgr);
  if (!compiled)
    return std::nullopt;
  return std::move(compiled->bundle);
}

} // namespace tilec
