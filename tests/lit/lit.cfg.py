# lit configuration for the FileCheck tests of tilec.
import os

import lit.formats

config.name = "tilec"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tile", ".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "tests", "lit")

# The project's tools first, then LLVM's FileCheck, not and count.
config.environment["PATH"] = os.pathsep.join(
    [config.tilec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
config.substitutions.append(("%examples", os.path.join(config.tilec_src_root, "examples")))
# Programs that use the JIT (the examples, the package test) keep their kernel
# cache in the build tree, not in the user's cache folder.
config.environment["TILEC_CACHE_DIR"] = os.path.join(config.test_exec_root, "jit-cache")
# Where the C++ examples (examples/*.cpp) are built.
config.substitutions.append(("%example_bin", os.path.join(config.tilec_obj_root, "examples")))
# The package test (Package/) installs the build tree and builds a project
# against it with the CMake, Ninja and C++ compiler that built tilec.
config.substitutions.append(("%tilec_src_root", config.tilec_src_root))
config.substitutions.append(("%tilec_obj_root", config.tilec_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%make_program", config.make_program))
config.substitutions.append(("%cxx_compiler", config.cxx_compiler))
# LLVM and MLIR linked statically (cmake/LinkLLVM.cmake).
if config.tilec_static_llvm.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("static-llvm")
# An ASan+UBSan build (scripts/test-sanitized.sh): ASan maps terabytes of
# shadow memory, so a test under `ulimit -v` cannot run there.
if config.tilec_sanitize.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("sanitize")
# The command-line compilers linked with mimalloc (cmake/Allocator.cmake).
if config.tilec_tool_allocator == "mimalloc":
    config.available_features.add("mimalloc")
# Test data generators use Debian's Python, which has numpy.
config.substitutions.append(("%python", "/usr/bin/python3"))
