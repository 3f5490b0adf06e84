# lit configuration of the differential test (tests/difftest, docs/testing.md):
# each seed of the CI set is one test, which generates a random valid Tile
# program (tilegen.py), runs it on the reference interpreter, OpenCL and
# Vulkan, and fails on a finding that known_issues.py does not explain.
import os
import sys

config.name = "tilec-difftest"
sys.path.insert(0, os.path.dirname(__file__))
from difftestformat import DiffTest  # noqa: E402

# The CI set: 40 seeds, about a minute on two cores.
ci_seeds = range(1, 41)

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "tests", "difftest")
config.test_format = DiffTest(ci_seeds, os.path.join(config.tilec_tools_dir, "tilec"),
                              config.test_exec_root)
# The drivers' settings pass through, as in the end-to-end suite.
for name in ["OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_CACHE_DIR", "HOME",
             "XDG_CACHE_HOME", "XDG_DATA_DIRS", "VK_ICD_FILENAMES",
             "VK_DRIVER_FILES", "VK_LAYER_PATH", "VK_ADD_LAYER_PATH"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]
