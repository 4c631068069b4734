import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a terminal shows after a stream of output: enough of VT100 for the
/// REPL's drawing (`\r`, `\n`, erase line, cursor left, text).
struct Screen {
  var lines: [[Character]] = [[]]
  var row = 0
  var column = 0

  mutating func feed(_ text: String) {
    var characters = Array(text)[...]
    while let character = characters.popFirst() {
      switch character {
      case "\r": column = 0
      case "\n", "\r\n":
        if character == "\r\n" { column = 0 }
        row += 1
        if row == lines.count { lines.append([]) }
      case "\u{1b}":
        guard characters.first == "[" else { continue }
        characters.removeFirst()
        var parameter = ""
        while let next = characters.first, next.isNumber {
          parameter.append(next)
          characters.removeFirst()
        }
        guard let final = characters.popFirst() else { return }
        switch final {
        case "K": lines[row] = Array(lines[row].prefix(column))
        case "D": column = max(0, column - (Int(parameter) ?? 1))
        case "C": column += Int(parameter) ?? 1
        default: break
        }
      default:
        while lines[row].count < column { lines[row].append(" ") }
        if column < lines[row].count { lines[row][column] = character } else { lines[row].append(character) }
        column += 1
      }
    }
  }

  var text: [String] { lines.map { String($0) } }
  /// The line the cursor is on.
  var current: String { String(lines[row]) }
}

/// The `repl` binary on a pseudo-terminal (`openpty`): what a person at a
/// terminal types and sees.
final class PseudoTerminalRepl {
  let process = Process()
  let master: Int32
  private(set) var output = ""
  private(set) var screen = Screen()

  init(_ arguments: [String] = ["--latency", "0"], columns: UInt16 = 200) throws {
    var master: Int32 = -1
    var slave: Int32 = -1
    var size = winsize(ws_row: 40, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.EIO) }
    // Close-on-exec: a program another test starts meanwhile must not keep
    // this terminal open (its end would never be seen).
    _ = fcntl(master, F_SETFD, FD_CLOEXEC)
    _ = fcntl(slave, F_SETFD, FD_CLOEXEC)
    self.master = master
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
      "repl")
    process.executableURL = binary
    process.arguments = arguments
    let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: true)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    try handle.close()
  }

  deinit {
    if process.isRunning { process.terminate() }
    close(master)
  }

  /// Types `text` (raw bytes: escape sequences and control keys included).
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress!, $0.count) }
  }

  /// Reads until `condition` holds of what has been shown; false (with
  /// an issue recorded) if the program ends first, or after a minute (a
  /// guard against a hang, not a timing).
  @discardableResult
  func waitFor(
    _ description: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (PseudoTerminalRepl) -> Bool
  ) -> Bool {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition(self), readChunk(before: deadline) {}
    let met = condition(self)
    if !met {
      Issue.record(
        "never saw \(description); the screen:\n\(screen.text.joined(separator: "\n"))", sourceLocation: sourceLocation)
    }
    return met
  }

  /// Reads what the program prints until it ends; its exit status.
  func exitStatus() -> Int32 {
    let deadline = ContinuousClock.now + .seconds(60)
    while readChunk(before: deadline) {}
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Reads one chunk of output; false at the end of output or past `deadline`.
  private func readChunk(before deadline: ContinuousClock.Instant) -> Bool {
    var buffer = [UInt8](repeating: 0, count: 4096)
    while ContinuousClock.now < deadline {
      var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, 1_000) > 0 else { continue }
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { return false }
      let text = String(decoding: buffer[0..<count], as: UTF8.self)
      output += text
      screen.feed(text)
      return true
    }
    return false
  }

  /// Whether a shown line is exactly `line`.
  func shows(_ line: String) -> Bool { screen.text.contains(line) }
}
