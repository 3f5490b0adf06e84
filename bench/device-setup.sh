# Sourced on the GPU machine from the project root: source .device/setup.sh (bench/pack-gpu.sh puts
# this file there). Unpacks the packed binaries and libraries, registers the NVIDIA OpenCL ICD, points Vulkan at
# the NVIDIA driver where the machine keeps it under /usr/local/nvidia, and puts .device/bin first on
# PATH. `clinfo -l` then lists the NVIDIA CUDA platform. A packed lavapipe is added to Vulkan's drivers.
D=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in "$D"/bin/*.xz "$D"/lib/*.xz "$D"/builds/*/*/*.xz; do
  [ -e "$f" ] && python3 -c "import lzma,sys;open(sys.argv[1][:-3],'wb').write(lzma.open(sys.argv[1]).read())" "$f" &&
    chmod +x "${f%.xz}" && rm -f "$f"
done
for f in "$D"/deb/lib*.deb "$D"/deb/ocl-icd*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
mkdir -p /tmp/devtools
for f in "$D"/deb/clinfo*.deb; do [ -e "$f" ] && dpkg -x "$f" /tmp/devtools; done
ldconfig
mkdir -p /etc/OpenCL/vendors
[ -e /etc/OpenCL/vendors/nvidia.icd ] || echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia=/usr/local/nvidia/share
[ -e $nvidia/vulkan/icd.d/nvidia_icd.json ] && export VK_DRIVER_FILES=$nvidia/vulkan/icd.d/nvidia_icd.json
[ -e $nvidia/glvnd/egl_vendor.d/10_nvidia.json ] &&
  export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia/glvnd/egl_vendor.d/10_nvidia.json
# lavapipe, where pack-gpu.sh --lavapipe packed it: beside the GPU's driver, not instead of it.
if [ -e "$D/icd/lvp_icd.json" ]; then
  if [ -n "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES="$VK_DRIVER_FILES:$D/icd/lvp_icd.json"
  else
    export VK_ADD_DRIVER_FILES="$D/icd/lvp_icd.json"
  fi
fi
export LD_LIBRARY_PATH="$D/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$D/bin:/tmp/devtools/usr/bin:$PATH"
