#define _GNU_SOURCE
#include "ActorMVVMStorageShims.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int storage_open_nameless(const char *directory) {
#if defined(__linux__) && defined(O_TMPFILE)
  return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#else
  (void)directory;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

int storage_name_nameless(int fd, const char *path) {
#if defined(__linux__) && defined(O_TMPFILE)
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  return linkat(AT_FDCWD, link, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
#else
  (void)fd;
  (void)path;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

int storage_open_private(const char *path, int flags) {
  return open(path, flags | O_CLOEXEC, 0600);
}

int storage_full_sync(int fd) {
#if defined(F_FULLFSYNC)
  if (fcntl(fd, F_FULLFSYNC) == 0) return 0;
#endif
  return fsync(fd);
}
