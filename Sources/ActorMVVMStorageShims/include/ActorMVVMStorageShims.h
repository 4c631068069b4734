#ifndef STORAGE_SHIMS_H
#define STORAGE_SHIMS_H

/// Opens a new, nameless regular file in `directory` for writing, mode
/// 0600 (Linux's O_TMPFILE): it has no name, so a crash while it is being
/// written leaves nothing on disk. Returns its descriptor (close-on-exec),
/// or -1 with errno set — EOPNOTSUPP where the file system or the system
/// cannot (then the caller writes a named temporary file instead).
int storage_open_nameless(const char *directory);

/// Gives the nameless file open at `fd` the name `path` (which must not
/// exist), through /proc/self/fd. Returns 0, or -1 with errno set.
int storage_name_nameless(int fd, const char *path);

/// `open(path, flags | O_CLOEXEC, 0600)`: one spelling of the call for every
/// system (Swift sees `open` as Glibc's on Linux and Darwin's on Apple).
/// Returns the descriptor, or -1 with errno set.
int storage_open_private(const char *path, int flags);

/// Makes what was written to `fd` durable: `fcntl(F_FULLFSYNC)` where the
/// system has it (Apple's `fsync` hands the data to the drive but does not
/// make the drive write it), `fsync` elsewhere and where the file system
/// refuses F_FULLFSYNC. Returns 0, or -1 with errno set.
int storage_full_sync(int fd);

#endif
