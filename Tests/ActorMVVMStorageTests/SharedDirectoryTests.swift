import Foundation
import Testing

@testable import ActorMVVMStorage

/// An app and its extension sharing one data directory (an App Group
/// container) are two processes on one lock (`DataDirectoryLock`'s doc).
/// The other process here is a shell holding `DIR/.lock` with `flock(1)` as
/// `DataDirectoryLock` does: `flock(2)` on the file, its pid written in it.
@Suite("A data directory shared by two processes (an app and its extension)")
struct SharedDirectoryTests {
  let directory: URL
  var lockPath: String { directory.appendingPathComponent(".lock").path }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("actormvvm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// The other process: a shell running `script` with the lock file as `$1`,
  /// its standard input and output piped to the test.
  final class Other {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()

    init(_ script: String, lockPath: String) throws {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", script, "sh", lockPath]
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.standardError
      try process.run()
    }

    /// The next line the other process prints (blocks until it does, or exits).
    func line() -> String {
      var bytes: [UInt8] = []
      while true {
        let byte = output.fileHandleForReading.readData(ofLength: 1)
        guard let first = byte.first, first != UInt8(ascii: "\n") else { break }
        bytes.append(first)
      }
      return String(decoding: bytes, as: UTF8.self)
    }

    /// Lets the other process go on past its next `read`.
    func proceed() throws { try input.fileHandleForWriting.write(contentsOf: Data("go\n".utf8)) }

    func exitStatus() -> Int32 {
      try? input.fileHandleForWriting.close()
      process.waitUntilExit()
      return process.terminationStatus
    }
  }

  @Test("The extension holds the directory: the app is refused, naming it; once it lets go, alive, the app takes it")
  func otherProcessHoldsThenReleases() throws {
    let other = try Other(
      """
      exec 9<>"$1" || exit 3
      flock -n 9 || exit 4
      : > "$1"; echo $$ >&9
      echo held; read go
      flock -u 9
      echo released; read go
      """, lockPath: lockPath)
    #expect(other.line() == "held")
    #expect(throws: DataDirectoryLockError.held(path: lockPath, pid: other.process.processIdentifier)) {
      _ = try DataDirectoryLock.acquire(directory: directory.path)
    }
    try other.proceed()
    #expect(other.line() == "released")
    // The other process is still running; its lock is not.
    #expect(other.process.isRunning)
    let lock = try DataDirectoryLock.acquire(directory: directory.path)
    #expect(try String(contentsOfFile: lock.path, encoding: .utf8) == "\(getpid())\n")
    try other.proceed()
    #expect(other.exitStatus() == 0)
    withExtendedLifetime(lock) {}
  }

  @Test("The app holds the directory: the extension is refused; once the app drops its lock, the extension takes it")
  func thisProcessHoldsThenReleases() throws {
    var lock: DataDirectoryLock? = try DataDirectoryLock.acquire(directory: directory.path)
    let refused = try Other(#"flock -n "$1" true; echo $?"#, lockPath: lockPath)
    #expect(refused.line() == "1")
    #expect(refused.exitStatus() == 0)
    withExtendedLifetime(lock) {}
    lock = nil
    // Waits (10 s at most) rather than trying once: a child another test
    // spawns at this moment may hold a copy of the descriptor until it execs.
    let taken = try Other(#"flock -w 10 "$1" true; echo $?"#, lockPath: lockPath)
    #expect(taken.line() == "0")
    #expect(taken.exitStatus() == 0)
  }
}
