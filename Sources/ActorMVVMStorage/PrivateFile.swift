import ActorMVVMStorageShims
import Foundation

/// Files only their owner can read (mode 0600), for anything that may hold
/// a secret: the session's tokens in a store, a recorded password. The mode
/// is set when the file is created, so there is no moment when it is
/// readable by others.
public enum PrivateFile {
  /// Creates `url` (which must not exist) with mode 0600 and writes `data`.
  /// - Throws: ``StorageError/writeFailed(path:reason:)``.
  public static func create(_ url: URL, contents data: Data) throws(StorageError) {
    let handle = try open(url, flags: O_CREAT | O_EXCL)
    defer { try? handle.close() }
    do {
      try handle.write(contentsOf: data)
    } catch {
      throw .writeFailed(path: url.path, reason: "\(error.localizedDescription)")
    }
    try sync(handle, path: url.path)
  }

  /// Opens `url` for appending, creating it with mode 0600 if it does not
  /// exist and emptying it if it does; an existing file's mode is set to 0600.
  /// A symbolic link is refused, not followed: emptying and re-moding
  /// whatever it points to is never what was meant.
  /// - Throws: ``StorageError/writeFailed(path:reason:)``.
  public static func openForWriting(_ url: URL) throws(StorageError) -> FileHandle {
    // O_NOFOLLOW: the open itself refuses a link (ELOOP), so there is no
    // check-then-open window, and no `stat` call (a file-timestamp API that
    // Apple's privacy manifest would have to give a reason for).
    let handle = try open(url, flags: O_CREAT | O_TRUNC | O_NOFOLLOW)
    guard fchmod(handle.fileDescriptor, 0o600) == 0 else {
      throw .writeFailed(path: url.path, reason: String(cString: strerror(errno)))
    }
    return handle
  }

  /// Writes `data` to a new file in `directory` that has no name (mode
  /// 0600, Linux's `O_TMPFILE`): a crash while it is written leaves nothing
  /// on disk. Nil where the system or the file system cannot; the caller
  /// then writes a named file. Name it with ``name(_:at:)``.
  /// - Throws: ``StorageError/writeFailed(path:reason:)`` if it could be
  ///   created but not written.
  public static func createNameless(in directory: URL, contents data: Data) throws(StorageError) -> FileHandle? {
    let descriptor = storage_open_nameless(directory.path)
    guard descriptor >= 0 else { return nil }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    do {
      try handle.write(contentsOf: data)
    } catch {
      try? handle.close()
      throw .writeFailed(path: directory.path, reason: "\(error.localizedDescription)")
    }
    do throws(StorageError) { try sync(handle, path: directory.path) } catch {
      try? handle.close()
      throw error
    }
    return handle
  }

  /// Gives the nameless file `handle` (from ``createNameless(in:contents:)``)
  /// the name `url`, which must not exist; false if it cannot be named
  /// (no `/proc`), for the caller to write a named file instead.
  public static func name(_ handle: FileHandle, at url: URL) -> Bool {
    storage_name_nameless(handle.fileDescriptor, url.path) == 0
  }

  private static func open(_ url: URL, flags: Int32) throws(StorageError) -> FileHandle {
    let descriptor = storage_open_private(url.path, O_WRONLY | flags)
    guard descriptor >= 0 else {
      let failure = errno
      if failure == ELOOP, flags & O_NOFOLLOW != 0 {
        throw .writeFailed(path: url.path, reason: "it is a symbolic link; refusing to follow it")
      }
      throw .writeFailed(path: url.path, reason: String(cString: strerror(failure)))
    }
    return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
  }

  /// Makes what was written to `handle` durable (`F_FULLFSYNC` on Apple
  /// systems, whose `fsync` does not reach the disk; `fsync` elsewhere).
  private static func sync(_ handle: FileHandle, path: String) throws(StorageError) {
    guard storage_full_sync(handle.fileDescriptor) == 0 else {
      throw .writeFailed(path: path, reason: String(cString: strerror(errno)))
    }
  }
}
