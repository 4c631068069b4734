import Foundation
import Testing

/// The data directory under faults, through the `repl` binary.
@Suite("REPL: the data directory under faults")
struct DataDirectoryTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("repl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  static var binary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("repl")
  }

  func run(_ arguments: [String], script: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try ReplTests().runBinary(arguments, script: script)
  }

  @Test(
    "Two processes on one directory: the second says which process holds it and exits 2; once the first quits, it runs")
  func oneProcessPerDirectory() throws {
    try #require(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build the repl product first")
    let first = Process()
    first.executableURL = Self.binary
    first.arguments = ["--data-dir", directory.path]
    let (input, output) = (Pipe(), Pipe())
    first.standardInput = input
    first.standardOutput = output
    first.standardError = Pipe()
    try first.run()
    // Its first screen is printed after it took the lock.
    _ = output.fileHandleForReading.availableData

    let second = try run(["--data-dir", directory.path], script: "open weather\n")
    #expect(second.status == 2)
    #expect(second.stderr.contains("the data directory is in use by process \(first.processIdentifier)"))
    #expect(second.stdout.isEmpty)

    try input.fileHandleForWriting.close()
    _ = output.fileHandleForReading.readDataToEndOfFile()
    first.waitUntilExit()
    #expect(first.terminationStatus == 0)
    let third = try run(["--data-dir", directory.path], script: "open weather\n")
    #expect(third.status == 0)
  }

  @Test("A server.json of the wrong shape is kept aside with a warning, like a corrupt one")
  func wrongShapeServerState() throws {
    let server = directory.appendingPathComponent("server.json")
    try Data(#"{"interview.refreshTokens": 5}"#.utf8).write(to: server)
    let result = try run(["--data-dir", directory.path], script: "")
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "warning: \(server.path) is not what this app writes (\"interview.refreshTokens\" is not a StoredTokens); kept it as \(server.path).corrupt"
      ))
    #expect(FileManager.default.fileExists(atPath: server.path + ".corrupt"))
  }

  @Test("A session of the wrong shape in store.json is kept aside with a warning")
  func wrongShapeSession() throws {
    let store = directory.appendingPathComponent("store.json")
    try Data(#"{"interview.session": "not a session", "Round": 3}"#.utf8).write(to: store)
    let result = try run(["--data-dir", directory.path], script: "")
    #expect(result.stderr.contains("warning: \(store.path) is not what this app writes"))
    #expect(FileManager.default.fileExists(atPath: store.path + ".corrupt"))
  }

  @Test("Temporary store files a crash left are gone after the next launch")
  func staleTemporaryFiles() throws {
    let stale = directory.appendingPathComponent(".store.json.\(UUID().uuidString).tmp")
    try Data(#"{"interview.session": {"tokens": "secret"}}"#.utf8).write(to: stale)
    let result = try run(["--data-dir", directory.path], script: "")
    #expect(result.status == 0)
    #expect(!FileManager.default.fileExists(atPath: stale.path))
  }

  @Test("--record refuses a symbolic link and says so; the link's target is untouched")
  func recordRefusesSymlinks() throws {
    let target = directory.appendingPathComponent("notes.txt")
    try Data("keep me".utf8).write(to: target)
    let link = directory.appendingPathComponent("session.rec")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let result = try run(["--record", link.path], script: "login alice\npassword hunter2\n")
    #expect(result.status == 2)
    #expect(result.stderr.contains("cannot record to \(link.path): it is a symbolic link; refusing to follow it"))
    #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
  }
}
