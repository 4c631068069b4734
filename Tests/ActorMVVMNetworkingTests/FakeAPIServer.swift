import Foundation

/// `Scripts/fake-api-server.py`, started for one test and stopped after it.
final class FakeAPIServer: Sendable {
  let port: Int
  /// A loopback port with nothing listening.
  let closedPort: Int
  private let process: Process
  private let stdin: Pipe

  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  init() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.repositoryRoot.appendingPathComponent("Scripts/fake-api-server.py").path]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    // The server's first line: "PORT <port> CLOSED <port>".
    var line = Data()
    while let byte = try stdout.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
      line.append(first)
    }
    let words = String(decoding: line, as: UTF8.self).split(separator: " ")
    guard words.count == 4, let port = Int(words[1]), let closed = Int(words[3]) else {
      process.terminate()
      throw ServerError.noPort(String(decoding: line, as: UTF8.self))
    }
    self.port = port
    self.closedPort = closed
    self.process = process
    self.stdin = stdin
  }

  enum ServerError: Error { case noPort(String) }

  func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

  deinit {
    try? stdin.fileHandleForWriting.close()
    process.terminate()
    process.waitUntilExit()
  }
}
