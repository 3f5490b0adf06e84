//===- Imports.cpp - Reading the files a Tile source imports --------------===//
//
// Each imported file becomes a buffer of the SourceMgr whose include location
// is its import, so that a diagnostic in it shows the chain of imports. Files
// are identified by their real path: a file imported twice is read once, and
// a file imported while it is being read closes a cycle.
//
// A relative import is looked up next to its importer first, then in the
// library path (docs/language.md section 8), as C's #include "..." is.
//
//===----------------------------------------------------------------------===//

#include "Imports.h"
#include "tilec/Frontend/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"

#include <dlfcn.h>

namespace tilec {
namespace {

class ImportReader {
public:
  ImportReader(ast::Module &module, Diagnostics &diags);

  void readImports(const std::vector<ast::Import> &imports,
                   unsigned importerId);
  /// Marks the main file as being read, so that importing it is a cycle.
  void enterMainFile(unsigned bufferId);

private:
  void readImport(const ast::Import &import, unsigned importerId);
  /// The file `import` names: next to its importer, else the first of the
  /// library path that exists, else (for the error) next to its importer.
  std::string findImport(const ast::Import &import, unsigned importerId);

  ast::Module &module;
  Diagnostics &diags;
  /// Where a relative import not found next to its importer is looked up.
  std::vector<std::string> libraryPath;
  /// Real path -> true while the file is being read, false once read.
  llvm::StringMap<bool> reading;
  /// The imports being read, outermost first.
  std::vector<const ast::Import *> chain;
};

} // namespace

static std::string getRealPath(llvm::StringRef path) {
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(path, real))
    return path.str();
  return std::string(real);
}

/// `<prefix>/share/tilec/tile` for the binary at `<prefix>/<dir>/binary`,
/// if that directory exists.
static void addInstalledLibrary(llvm::StringRef binary,
                                std::vector<std::string> &dirs) {
  llvm::SmallString<256> dir(getRealPath(binary));
  llvm::sys::path::remove_filename(dir);
  llvm::sys::path::remove_filename(dir);
  llvm::sys::path::append(dir, TILEC_LIBRARY_INSTALL_DIR);
  if (llvm::sys::fs::is_directory(dir) &&
      !llvm::is_contained(dirs, std::string(dir)))
    dirs.push_back(std::string(dir));
}

/// TILEC_LIBRARY_PATH's directories, then the library installed with the
/// shared library that holds this code (libtilec_jit.so, for an application
/// of the JIT), then the one installed with the executable (tilec).
static std::vector<std::string> getLibraryPath() {
  std::vector<std::string> dirs;
  if (std::optional<std::string> path =
          llvm::sys::Process::GetEnv("TILEC_LIBRARY_PATH")) {
    llvm::SmallVector<llvm::StringRef> parts;
    llvm::StringRef(*path).split(parts, llvm::sys::EnvPathSeparator, -1,
                                 /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      dirs.push_back(part.str());
  }
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&getLibraryPath), &info) &&
      info.dli_fname && llvm::sys::path::is_absolute(info.dli_fname))
    addInstalledLibrary(info.dli_fname, dirs);
  std::string executable = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!executable.empty())
    addInstalledLibrary(executable, dirs);
  return dirs;
}

ImportReader::ImportReader(ast::Module &module, Diagnostics &diags)
    : module(module), diags(diags), libraryPath(getLibraryPath()) {}

void ImportReader::enterMainFile(unsigned bufferId) {
  llvm::StringRef name =
      diags.getSourceMgr().getMemoryBuffer(bufferId)->getBufferIdentifier();
  if (llvm::sys::fs::exists(name))
    reading[getRealPath(name)] = true;
}

void ImportReader::readImports(const std::vector<ast::Import> &imports,
                               unsigned importerId) {
  for (const ast::Import &import : imports)
    readImport(import, importerId);
}

std::string ImportReader::findImport(const ast::Import &import,
                                     unsigned importerId) {
  if (llvm::sys::path::is_absolute(import.path))
    return import.path;
  llvm::StringRef importer =
      diags.getSourceMgr().getMemoryBuffer(importerId)->getBufferIdentifier();
  llvm::SmallString<256> nextToImporter(llvm::sys::path::parent_path(importer));
  llvm::sys::path::append(nextToImporter, import.path);
  if (llvm::sys::fs::exists(nextToImporter))
    return std::string(nextToImporter);
  for (const std::string &dir : libraryPath) {
    llvm::SmallString<256> path(dir);
    llvm::sys::path::append(path, import.path);
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return std::string(nextToImporter);
}

void ImportReader::readImport(const ast::Import &import, unsigned importerId) {
  llvm::SourceMgr &sourceMgr = diags.getSourceMgr();
  std::string path = findImport(import, importerId);
  std::string realPath = getRealPath(path);
  auto it = reading.find(realPath);
  if (it != reading.end()) {
    if (it->second) {
      diags.error(import.loc, "import cycle: '" + import.path +
                                  "' is being imported already");
      for (auto outer = chain.rbegin(); outer != chain.rend(); ++outer)
        diags.note((*outer)->loc, "imported from here");
    }
    return;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (std::error_code ec = buffer.getError()) {
    diags.error(import.loc, "cannot read '" + path + "': " + ec.message());
    if (llvm::sys::path::is_relative(import.path))
      diags.note(import.loc,
                 "nor is '" + import.path + "' in the library path (" +
                     (libraryPath.empty() ? std::string("empty")
                                          : llvm::join(libraryPath, ", ")) +
                     ")");
    return;
  }
  reading[realPath] = true;
  unsigned bufferId =
      sourceMgr.AddNewSourceBuffer(std::move(*buffer), import.loc);
  Parser parser(diags, bufferId);
  std::unique_ptr<ast::Module> imported = parser.parseModule();
  for (std::unique_ptr<ast::Function> &function : imported->functions)
    module.importedFunctions.push_back(std::move(function));
  chain.push_back(&import);
  readImports(imported->imports, bufferId);
  chain.pop_back();
  reading[realPath] = false;
}

/// Two functions of one name in one file are allowed (as they were before
/// calls existed); in two files they are an error.
static void checkUniqueNames(const ast::Module &module, Diagnostics &diags) {
  llvm::SourceMgr &sourceMgr = diags.getSourceMgr();
  llvm::StringMap<const ast::Function *> seen;
  for (const auto *list : {&module.functions, &module.importedFunctions})
    for (const std::unique_ptr<ast::Function> &function : *list) {
      if (function->name.empty())
        continue;
      auto [it, inserted] = seen.try_emplace(function->name, function.get());
      if (inserted || sourceMgr.FindBufferContainingLoc(it->second->loc) ==
                          sourceMgr.FindBufferContainingLoc(function->loc))
        continue;
      diags.error(function->loc,
                  "function '" + function->name + "' is defined in two files");
      diags.note(it->second->loc,
                 "'" + function->name + "' is first defined here");
    }
}

void resolveImports(ast::Module &module, unsigned bufferId,
                    Diagnostics &diags) {
  ImportReader reader(module, diags);
  reader.enterMainFile(bufferId);
  reader.readImports(module.imports, bufferId);
  checkUniqueNames(module, diags);
  for (const auto *list : {&module.functions, &module.importedFunctions})
    for (const std::unique_ptr<ast::Function> &function : *list)
      function->module = &module;
}

} // namespace tilec
