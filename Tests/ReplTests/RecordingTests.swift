import ActorMVVMStorage
import Foundation
import ReplCore
import Testing

/// The permission bits of the file at `url`.
func mode(of url: URL) throws -> Int {
  try ((FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1) & 0o777
}

func temporaryDirectory() throws -> URL {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent("repl-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  return directory
}

@Suite("REPL: recordings and files at rest")
struct RecordingTests {
  @Test("A recording is created 0600 (it holds what was typed, passwords too) and replays line for line")
  func roundTrip() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("session.jsonl").path
    let recorder = try Recorder(path: path)
    for line in ["id alice", "password secret", "login"] { recorder.record(line) }
    recorder.close()
    #expect(try mode(of: URL(fileURLWithPath: path)) == 0o600)
    #expect(try Replay.lines(path: path) == ["id alice", "password secret", "login"])
  }

  @Test("Recording over an existing world-readable file makes it 0600")
  func existingFile() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("old.jsonl")
    try Data("old".utf8).write(to: url)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    let recorder = try Recorder(path: url.path)
    recorder.record("help")
    recorder.close()
    #expect(try mode(of: url) == 0o600)
    #expect(try Replay.lines(path: url.path) == ["help"])
  }

  @Test("Replay errors are one line each: a missing file, a malformed line with its number")
  func replayErrors() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("nope.jsonl").path
    #expect(throws: RecordingError.unreadable(path: missing, reason: "no such file")) {
      try Replay.lines(path: missing)
    }
    let bad = directory.appendingPathComponent("bad.jsonl")
    try Data("{\"atMilliseconds\":0,\"line\":\"help\"}\n\n{\"atMilliseconds\":1}\n".utf8).write(to: bad)
    #expect(throws: RecordingError.malformed(path: bad.path, line: 3)) { try Replay.lines(path: bad.path) }
    #expect(
      RecordingError.malformed(path: "f", line: 3).description
        == "f:3: not a recorded command (expected {\"atMilliseconds\": N, \"line\": \"…\"})")
    #expect(throws: RecordingError.self) { try Recorder(path: directory.appendingPathComponent("no/such/dir").path) }
  }

  @Test("The store, which holds the session's tokens, is written 0600")
  func storeIsPrivate() async throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("store.json")
    let store = FileKeyValueStore(url: url)
    try await store.set("token", forKey: "session")
    #expect(try mode(of: url) == 0o600)
  }
}
