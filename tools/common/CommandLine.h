//===- CommandLine.h - The options tilec and tile-run share -----*- C++ -*-===//
//
// Both tools parse their command lines with CLI11 (header-only, so tile-run
// still links the runtime alone), and every option they share is declared
// here, once: the same spelling, the same help, the same values. Errors of
// the command line read "TOOL: error: MESSAGE" and exit with status 2.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_COMMON_COMMANDLINE_H
#define TILEC_TOOLS_COMMON_COMMANDLINE_H

#include "OutputArguments.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tilec {

/// The exit statuses of both tools (docs/cli.md), as --help ends.
extern const char *const kExitStatusHelp;

/// Input data: `--input`, `--in`, `--random`, `--seed`.
struct InputDataArguments {
  std::vector<std::string> inputs;
  std::vector<std::string> inputFiles;
  bool random = false;
  uint64_t seed = 1;
};
void addInputDataOptions(CLI::App &app, InputDataArguments &arguments);

/// Outputs: `--print`, `--checksum`, `--output`, `--output-dir`, and the
/// hidden former `--out` (`formerOutDir`), which checkFormerOutDir refuses.
void addOutputOptions(CLI::App &app, OutputArguments &arguments,
                      std::string &formerOutDir);
/// Reports `--out`, which `--output-dir` replaced; returns false then.
bool checkFormerOutDir(const CLI::App &app, const char *tool);

/// `--backend` with the backends `choices` ("opencl|vulkan"), `--device`,
/// `--profile`.
void addDeviceOptions(CLI::App &app, std::string &backend,
                      const std::string &choices, const std::string &help,
                      std::string &device, std::string &profile);

/// `--memory-report`.
void addMemoryReportOption(CLI::App &app, bool &memoryReport);

/// `--no-driver-optimization`: sets `unoptimized`.
void addDriverOptimizationOption(CLI::App &app, bool &unoptimized);

/// Parses the command line into the options of `app`. On --help or
/// --version prints it and sets `exitCode` to 0; on an error prints
/// "TOOL: error: ..." and sets `exitCode` to 2. Returns whether to go on.
bool parseCommandLine(CLI::App &app, int argc, char **argv, const char *tool,
                      int &exitCode);

} // namespace tilec

#endif // TILEC_TOOLS_COMMON_COMMANDLINE_H
