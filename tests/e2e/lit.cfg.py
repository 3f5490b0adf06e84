# lit configuration of the end-to-end suite: every .tile program here is
# compiled for the default OpenCL device (PoCL's CPU in CI, or the device
# that TILEC_E2E_DEVICE names), run on random inputs, and checked against
# the reference interpreter by `tilec run --check`. The `%oclgrind` lines
# run a subset under Oclgrind and fail on any race or out-of-bounds access
# it reports; CI requires them, so a machine
# without oclgrind fails them rather than skipping them.
import os

import lit.formats

config.name = "tilec-e2e"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tile", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "tests", "e2e")

config.environment["PATH"] = os.pathsep.join(
    [config.tilec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# The ICD loader's and the drivers' settings pass through (a CI machine may
# point OCL_ICD_VENDORS at its drivers; PoCL caches kernels in its HOME).
for name in ["OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_CACHE_DIR", "HOME",
             "XDG_CACHE_HOME"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

# `tilec run %s ... %device` runs on the device TILEC_E2E_DEVICE selects
# (an index or a name substring), else on tilec's default device.
device = os.environ.get("TILEC_E2E_DEVICE", "")
config.substitutions.append(("%device", "--device '%s'" % device if device else ""))
# TILEC_E2E_SKIP_OCLGRIND=1 leaves the Oclgrind lines out of a run on
# another device (a GPU machine has no Oclgrind; CI always runs them).
oclgrind = "sh " + os.path.join(config.test_source_root, "oclgrind.sh")
if os.environ.get("TILEC_E2E_SKIP_OCLGRIND") == "1":
    oclgrind = "true || " + oclgrind
config.substitutions.append(("%oclgrind", oclgrind))
config.substitutions.append(("%python", "/usr/bin/python3"))
