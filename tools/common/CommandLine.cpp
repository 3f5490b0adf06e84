//===- CommandLine.cpp - The options tilec and tile-run share -------------===//

#include "CommandLine.h"

#include <cstdio>

using namespace tilec;

const char *const tilec::kExitStatusHelp =
    "Exit status: 0 success, 1 an error in the program or its data "
    "(file:line:col),\n2 a bad command line, 3 a device or runtime failure "
    "(docs/cli.md).";

void tilec::addInputDataOptions(CLI::App &app, InputDataArguments &arguments) {
  app.add_option("--input", arguments.inputs,
                 "An input's values in C order (2x3xf32=1,2,3,4,5,6; one "
                 "value fills the tensor; a scalar is f32=0.5), or "
                 "@FILE.npy its file")
      ->type_name("NAME=VALUES|NAME=@FILE.npy")
      ->allow_extra_args(false);
  app.add_option("--in", arguments.inputFiles,
                 "The same as --input NAME=@FILE.npy")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false);
  app.add_flag("--random", arguments.random,
               "Fill the inputs without --input with pseudo-random values");
  app.add_option("--seed", arguments.seed,
                 "The seed of the random inputs (default 1)")
      ->type_name("N");
}

void tilec::addOutputOptions(CLI::App &app, OutputArguments &arguments,
                             std::string &formerOutDir) {
  app.add_flag("--print", arguments.print,
               "Print each output's values, as NumPy prints them");
  app.add_flag("--checksum", arguments.checksum,
               "Print each output's checksum (the default without --print)");
  app.add_option("--output", arguments.files,
                 "Write the output NAME to FILE.npy")
      ->type_name("NAME=FILE.npy")
      ->allow_extra_args(false);
  app.add_option("--output-dir", arguments.directory,
                 "Write every output to DIR/<output>.npy")
      ->type_name("DIR");
  // Hidden: only there to say what replaced it.
  app.add_option("--out", formerOutDir)->group("");
}

bool tilec::checkFormerOutDir(const CLI::App &app, const char *tool) {
  if (!app.count("--out"))
    return true;
  std::fprintf(stderr,
               "%s: error: --out is now --output-dir DIR (every output), or "
               "--output NAME=FILE.npy (one output)\n",
               tool);
  return false;
}

void tilec::addDeviceOptions(CLI::App &app, std::string &backend,
                             const std::string &choices,
                             const std::string &help, std::string &device,
                             std::string &profile) {
  app.add_option("--backend", backend, help)->type_name(choices);
  app.add_option("--device", device,
                 "The device of the backend: an index or a substring of its "
                 "name (see tilec devices); default: the first GPU, else the "
                 "first CPU")
      ->type_name("SEL");
  app.add_option("--profile", profile,
                 "A JSON device profile over the device's (one that gives "
                 "every key describes the target by itself)")
      ->type_name("FILE");
}

void tilec::addMemoryReportOption(CLI::App &app, bool &memoryReport) {
  app.add_flag("--memory-report", memoryReport,
               "Print the most device memory the run held at once");
}

void tilec::addDriverOptimizationOption(CLI::App &app, bool &unoptimized) {
  app.add_flag("--no-driver-optimization", unoptimized,
               "Have the driver build the device code unoptimized (OpenCL "
               "-cl-opt-disable, Vulkan VK_PIPELINE_CREATE_DISABLE_"
               "OPTIMIZATION_BIT): slower, to tell a miscompile of the "
               "driver's from tilec's (docs/testing.md)");
}

bool tilec::parseCommandLine(CLI::App &app, int argc, char **argv,
                             const char *tool, int &exitCode) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp &) {
    std::fputs(app.help().c_str(), stdout);
    exitCode = 0;
    return false;
  } catch (const CLI::CallForVersion &) {
    std::printf("%s\n", app.version().c_str());
    exitCode = 0;
    return false;
  } catch (const CLI::ParseError &error) {
    // A subcommand's --help prints that subcommand's options.
    if (error.get_exit_code() == 0) {
      exitCode = app.exit(error);
      return false;
    }
    std::fprintf(stderr, "%s: error: %s\n", tool, error.what());
    exitCode = 2;
    return false;
  }
  return true;
}
