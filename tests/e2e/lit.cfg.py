# lit configuration of the end-to-end suite: every .tile program here is
# compiled for the default OpenCL device (PoCL's CPU in CI, or the device
# that TILEC_E2E_DEVICE names), run on random inputs, and checked against
# the reference interpreter by `tilec run --check`. The `%oclgrind` lines
# run a subset under Oclgrind and fail on any race or out-of-bounds access
# it reports; CI requires them, so a machine
# without oclgrind fails them rather than skipping them.
#
# The same sources run a second time on Vulkan (the site config in
# build/tests/e2e-vulkan sets tilec_e2e_backend): `%device` then selects
# `--backend vulkan` and the device that TILEC_E2E_VULKAN_DEVICE names
# (lavapipe in CI), every run is under the Vulkan validation layers, whose
# every message fails the run, and the Oclgrind lines and tests, which are
# about OpenCL, are left out.
import os
import sys

# A site config without tilec_e2e_backend (bench/gpu-run.sh writes its own)
# runs on OpenCL.
vulkan = getattr(config, "tilec_e2e_backend", "opencl") == "vulkan"
config.name = "tilec-e2e-vulkan" if vulkan else "tilec-e2e"

# Programs that fail on Vulkan for known reasons in the SPIR-V code
# generation, each expected to fail until its fix lands: a fix makes the
# program pass unexpectedly, which fails the suite until it leaves the list.
# None now: the whole suite passes on lavapipe.
vulkan_known_failures = set()

sys.path.insert(0, os.path.dirname(__file__))
from e2eformat import E2ETest  # noqa: E402

config.test_format = E2ETest(vulkan_known_failures if vulkan else [])
config.suffixes = [".tile", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py", "e2eformat.py"]
if vulkan:
    # The harnesses check code, not a backend's run: the OpenCL suite has them.
    config.excludes += ["oclgrind-harness.test", "spirv-harness.test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilec_obj_root, "tests",
                                     "e2e-vulkan" if vulkan else "e2e")

config.environment["PATH"] = os.pathsep.join(
    [config.tilec_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# The ICD loader's and the drivers' settings pass through (a CI machine may
# point OCL_ICD_VENDORS at its drivers; PoCL caches kernels in its HOME).
# So do the Vulkan loader's (VK_ICD_FILENAMES may name the driver), and
# the Tile library's search path (tools run outside the build tree).
for name in ["OCL_ICD_VENDORS", "OCL_ICD_FILENAMES", "POCL_CACHE_DIR", "HOME",
             "XDG_CACHE_HOME", "XDG_DATA_DIRS", "VK_ICD_FILENAMES",
             "VK_DRIVER_FILES", "VK_LAYER_PATH", "VK_ADD_LAYER_PATH",
             "TILEC_LIBRARY_PATH"]:
    if name in os.environ:
        config.environment[name] = os.environ[name]

# `tilec run %s ... %device` runs on the device TILEC_E2E_DEVICE (on
# Vulkan: TILEC_E2E_VULKAN_DEVICE) selects (an index or a name substring),
# else on tilec's default device.
device = os.environ.get("TILEC_E2E_VULKAN_DEVICE" if vulkan else "TILEC_E2E_DEVICE", "")
device_flags = "--backend vulkan " if vulkan else ""
if device:
    device_flags += "--device '%s'" % device
config.substitutions.append(("%device", device_flags.strip()))
# TILEC_E2E_SKIP_VALIDATION=1 runs without the validation layers (a GPU
# machine without them installed; CI always runs under them).
if vulkan and os.environ.get("TILEC_E2E_SKIP_VALIDATION") != "1":
    config.environment["TILEC_VULKAN_VALIDATION"] = "1"
# TILEC_E2E_SKIP_OCLGRIND=1 leaves the Oclgrind lines out of a run on
# another device (a GPU machine has no Oclgrind; CI always runs them).
oclgrind = "sh " + os.path.join(config.test_source_root, "oclgrind.sh")
if vulkan or os.environ.get("TILEC_E2E_SKIP_OCLGRIND") == "1":
    oclgrind = "true || " + oclgrind
config.substitutions.append(("%oclgrind", oclgrind))
# Debian's Python, which has NumPy; a site configuration may name another
# (the GPU machine's, bench/gpu-run.sh).
config.substitutions.append(("%python", getattr(config, "tilec_python", "/usr/bin/python3")))
