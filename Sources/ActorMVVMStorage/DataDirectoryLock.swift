import ActorMVVMStorageShims
import Foundation

/// One process per data directory: an advisory lock on `DIR/.lock`
/// (`flock(2)`), held for the life of this value or of the process.
///
/// Two processes caching and rewriting one store lose each other's writes
/// (a best record, a rotated refresh token), so a second process is
/// refused instead of merged: ``acquire(directory:)`` throws
/// ``DataDirectoryLockError/held(path:pid:)`` naming the process that holds
/// it. The lock is the kernel's: it is released when the holder exits,
/// however it exits (`kill -9` included), so a stale lock file never locks
/// anyone out. The file holds the holder's process id, for the message
/// only; it is created 0600.
///
/// **An app and its extension** sharing a directory (an App Group
/// container) are two processes like any others: while one holds the lock
/// the other is refused with ``DataDirectoryLockError/held(path:pid:)``, and
/// takes it once the holder lets go — by exiting, or by releasing this
/// value while it keeps running. Neither ever sees the other's half-written
/// store. Hold the lock only while the process is in the foreground: iOS
/// terminates a suspended process that holds a file lock in a shared
/// container, so release it when the app moves to the background (and in
/// an extension, when its work is done), and acquire it again on return.
/// `SharedDirectoryTests` runs both sides as two processes.
public final class DataDirectoryLock: Sendable {
  /// The lock file.
  public let path: String
  private let descriptor: Int32

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Takes the lock on `directory` (created 0700 if missing), or throws
  /// without waiting if another process holds it.
  public static func acquire(directory: String) throws(DataDirectoryLockError) -> DataDirectoryLock {
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .unusable(path: directory, reason: error.localizedDescription)
    }
    let path = URL(fileURLWithPath: directory).appendingPathComponent(".lock").path
    let descriptor = storage_open_private(path, O_RDWR | O_CREAT | O_NOFOLLOW)
    guard descriptor >= 0 else { throw .unusable(path: path, reason: String(cString: strerror(errno))) }
    guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
      let failure = errno
      var buffer = [UInt8](repeating: 0, count: 32)
      let count = read(descriptor, &buffer, buffer.count)
      close(descriptor)
      guard failure == EWOULDBLOCK else { throw .unusable(path: path, reason: String(cString: strerror(failure))) }
      let text = String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
      throw .held(path: path, pid: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
    let pid = Array("\(getpid())\n".utf8)
    _ = ftruncate(descriptor, 0)
    _ = pwrite(descriptor, pid, pid.count, 0)
    return DataDirectoryLock(path: path, descriptor: descriptor)
  }
}

/// Why a data directory cannot be used.
public enum DataDirectoryLockError: Error, Equatable, CustomStringConvertible {
  /// Another process holds the directory's lock.
  case held(path: String, pid: Int32?)
  /// The directory or its lock file cannot be created or opened.
  case unusable(path: String, reason: String)

  public var description: String {
    switch self {
    case .held(let path, let pid):
      "the data directory is in use by \(pid.map { "process \($0)" } ?? "another process") (it holds \(path)); one process at a time"
    case .unusable(let path, let reason): "cannot use \(path): \(reason)"
    }
  }
}
