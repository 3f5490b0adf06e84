//===- DeviceChoice.h - The device a command line asks for ------*- C++ -*-===//
//
// What `--device SEL` and `--profile FILE` mean for every tool: enumerate
// the OpenCL devices, pick one, and let a profile file override what the
// driver reports (so a test can pretend to be a smaller device).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_RUNTIME_DEVICECHOICE_H
#define TILEC_RUNTIME_DEVICECHOICE_H

#include "tilec/Runtime/OpenCL.h"

#include <memory>
#include <string>
#include <string_view>

namespace tilec {

/// Enumerates the devices, picks one with `selector` (as
/// opencl::selectDevice does) and, unless `profilePath` is empty, applies
/// that profile file to its profile.
Expected<opencl::DeviceDescriptor> chooseDevice(std::string_view selector,
                                                const std::string &profilePath);

/// chooseDevice, then opens the device.
Expected<std::unique_ptr<opencl::Device>>
openChosenDevice(std::string_view selector, const std::string &profilePath);

} // namespace tilec

#endif // TILEC_RUNTIME_DEVICECHOICE_H
