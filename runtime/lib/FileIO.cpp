//===- FileIO.cpp - Whole-file reads and atomic writes --------------------===//

#include "FileIO.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

using namespace tilec;

std::optional<std::string> tilec::readWholeFile(const std::string &path,
                                                std::string &error) {
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) {
    error = path + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  std::string contents;
  char chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, file)) > 0)
    contents.append(chunk, got);
  int readError = std::ferror(file) ? errno : 0;
  std::fclose(file);
  if (readError) {
    error = path + ": cannot read: " + std::strerror(readError);
    return std::nullopt;
  }
  return contents;
}

bool tilec::writeFileAtomically(const std::string &path,
                                std::string_view contents, std::string &error) {
  // A fresh name next to the target ('x' fails if it exists), so that the
  // rename stays within one file system and cannot clobber another writer.
  auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
  std::string tempPath;
  std::FILE *file = nullptr;
  for (int attempt = 0; attempt < 100 && !file; ++attempt) {
    tempPath = path + ".tmp" + std::to_string(stamp + attempt);
    file = std::fopen(tempPath.c_str(), "wbx");
    if (!file && errno != EEXIST)
      break;
  }
  if (!file) {
    error = path + ": cannot create a temporary file: " + std::strerror(errno);
    return false;
  }
  bool written =
      std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  int writeError = errno;
  if (std::fclose(file) != 0 && written) {
    written = false;
    writeError = errno;
  }
  if (written && std::rename(tempPath.c_str(), path.c_str()) == 0)
    return true;
  if (written)
    writeError = errno;
  std::remove(tempPath.c_str());
  error = path + ": cannot write: " + std::strerror(writeError);
  return false;
}
