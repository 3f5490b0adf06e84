//===- FileIO.cpp - Whole-file reads and atomic writes --------------------===//

#include "FileIO.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tilec;

/// What a file of `mode` is, for a message refusing it.
static const char *fileTypeName(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

/// Reads up to `size` bytes at the file's position into `out`; returns the
/// bytes read, or -1 with errno set.
static ssize_t readFully(int fd, char *out, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t got = ::read(fd, out + done, size - done);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return -1;
    if (got == 0)
      break;
    done += size_t(got);
  }
  return ssize_t(done);
}

std::optional<std::string> tilec::readWholeFile(const std::string &path,
                                                std::string &error,
                                                std::string_view magic,
                                                std::string_view kind) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused
  // below like every file that is not regular (/dev/zero never ends).
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    error = path + ": cannot open: " + std::strerror(errno);
    return std::nullopt;
  }
  auto fail = [&](const std::string &message) -> std::optional<std::string> {
    error = path + ": " + message;
    ::close(fd);
    return std::nullopt;
  };
  struct stat info;
  if (::fstat(fd, &info) != 0)
    return fail(std::string("cannot read: ") + std::strerror(errno));
  if (!S_ISREG(info.st_mode))
    return fail(std::string("cannot read: ") + fileTypeName(info.st_mode) +
                ", not a regular file");

  std::string contents(magic.size(), '\0');
  ssize_t got = readFully(fd, contents.data(), magic.size());
  if (got < 0)
    return fail(std::string("cannot read: ") + std::strerror(errno));
  if (size_t(got) != magic.size() || contents != magic)
    return fail("not " + std::string(kind) + " (bad magic)");
  char chunk[1 << 16];
  while ((got = readFully(fd, chunk, sizeof chunk)) > 0)
    contents.append(chunk, size_t(got));
  if (got < 0)
    return fail(std::string("cannot read: ") + std::strerror(errno));
  ::close(fd);
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
