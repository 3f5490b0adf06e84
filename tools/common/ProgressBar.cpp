//===- ProgressBar.cpp - A progress bar on stderr -------------------------===//

#include "ProgressBar.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

using namespace tilec;

namespace {

constexpr int kBarWidth = 30;
constexpr auto kFirstDrawAfter = std::chrono::milliseconds(500);
constexpr auto kRedrawEvery = std::chrono::milliseconds(100);

bool isForced() {
  const char *force = std::getenv("TILEC_FORCE_PROGRESS");
  return force && std::strcmp(force, "1") == 0;
}

} // namespace

bool ProgressBar::isEnabled() {
  if (std::getenv("TILEC_NO_PROGRESS"))
    return false;
  if (isForced())
    return true;
  const char *term = std::getenv("TERM");
  return isatty(fileno(stderr)) && term && std::strcmp(term, "dumb") != 0;
}

ProgressBar::ProgressBar(std::string label)
    : label(std::move(label)), enabled(isEnabled()), forced(isForced()),
      start(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() {
  if (!drawn)
    return;
  // Blank the line, so that what follows starts on a clean one.
  std::fprintf(stderr, "\r%*s\r", int(label.size()) + kBarWidth + 16, "");
  std::fflush(stderr);
}

void ProgressBar::update(uint64_t done, uint64_t total) {
  if (!enabled)
    return;
  auto now = std::chrono::steady_clock::now();
  bool finished = done >= total;
  if (!forced && now - start < kFirstDrawAfter)
    return;
  if (drawn && !finished && now - lastDraw < kRedrawEvery)
    return;
  lastDraw = now;
  draw(done, total);
}

void ProgressBar::draw(uint64_t done, uint64_t total) {
  double fraction = total ? double(std::min(done, total)) / double(total) : 1;
  int filled = int(fraction * kBarWidth);
  std::string bar(filled, '#');
  bar.resize(kBarWidth, '.');
  std::fprintf(stderr, "\r%s [%s] %3d%%", label.c_str(), bar.c_str(),
               int(fraction * 100));
  std::fflush(stderr);
  drawn = true;
}
