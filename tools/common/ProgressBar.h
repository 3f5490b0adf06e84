//===- ProgressBar.h - A progress bar on stderr -----------------*- C++ -*-===//
//
// Long work (the reference interpreter, a benchmark's runs) shows how far it
// has got, on stderr and only when stderr is a terminal that can draw it:
// scripts and tests parse the tools' output, so elsewhere it prints nothing.
// TILEC_NO_PROGRESS (any value) turns it off; TILEC_FORCE_PROGRESS=1 draws
// it even without a terminal, from the first update (for tests).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TOOLS_COMMON_PROGRESSBAR_H
#define TILEC_TOOLS_COMMON_PROGRESSBAR_H

#include <chrono>
#include <cstdint>
#include <string>

namespace tilec {

class ProgressBar {
public:
  explicit ProgressBar(std::string label);
  /// Clears the bar if it was drawn.
  ~ProgressBar();
  ProgressBar(const ProgressBar &) = delete;
  ProgressBar &operator=(const ProgressBar &) = delete;

  /// Records `done` of `total`; redraws at most every tenth of a second,
  /// and only once the work has lasted half a second (work that ends sooner
  /// needs no bar), and on reaching the total.
  void update(uint64_t done, uint64_t total);

  /// Whether bars are drawn in this process.
  static bool isEnabled();

private:
  void draw(uint64_t done, uint64_t total);

  std::string label;
  bool enabled, forced;
  bool drawn = false;
  std::chrono::steady_clock::time_point start, lastDraw;
};

} // namespace tilec

#endif // TILEC_TOOLS_COMMON_PROGRESSBAR_H
