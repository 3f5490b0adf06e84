//===- Grad.h - `tilec grad` ------------------------------------*- C++ -*-===//
//
// The grad subcommand registers its own options (Grad.cpp), so that the
// driver only dispatches to it.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_TILEC_GRAD_H
#define TILEC_TOOLS_TILEC_GRAD_H

#include <optional>

namespace tilec {

/// Hides the options of the other subcommands from `tilec grad --help`;
/// call before parsing the command line.
void prepareGradCommand();

/// After parsing: the exit status of `tilec grad` when it was chosen.
std::optional<int> runGradIfChosen();

} // namespace tilec

#endif // TILEC_TOOLS_TILEC_GRAD_H
