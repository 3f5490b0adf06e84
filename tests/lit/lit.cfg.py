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
# Test data generators use Debian's Python, which has numpy.
config.substitutions.append(("%python", "/usr/bin/python3"))
