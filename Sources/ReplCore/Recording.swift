import ActorMVVMStorage
import Foundation

/// One recorded command: what was typed and when, in milliseconds since start.
public struct RecordedLine: Codable, Equatable, Sendable {
  public var atMilliseconds: Int
  public var line: String

  public init(atMilliseconds: Int, line: String) {
    self.atMilliseconds = atMilliseconds
    self.line = line
  }
}

/// Why a recording could not be written or replayed: one line, naming the
/// file and, for a bad line, its number.
public enum RecordingError: Error, Equatable, CustomStringConvertible {
  /// The file could not be opened or read.
  case unreadable(path: String, reason: String)
  /// The file could not be created or written.
  case unwritable(path: String, reason: String)
  /// Line `line` (from 1) is not a recorded command.
  case malformed(path: String, line: Int)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason): "cannot replay \(path): \(reason)"
    case .unwritable(let path, let reason): "cannot record to \(path): \(reason)"
    case .malformed(let path, let line):
      "\(path):\(line): not a recorded command (expected {\"atMilliseconds\": N, \"line\": \"…\"})"
    }
  }
}

/// `--record FILE`: writes each line typed, as JSON with its time, to a
/// file created with mode 0600 — what is typed includes passwords.
public final class Recorder: Sendable {
  private let handle: FileHandle
  private let started = ContinuousClock.now

  /// Creates (or empties) the file at `path`, readable by its owner only.
  public init(path: String) throws(RecordingError) {
    do {
      handle = try PrivateFile.openForWriting(URL(fileURLWithPath: path))
    } catch {
      throw .unwritable(path: path, reason: Self.reason(error))
    }
  }

  /// Appends `line` with the time since the recorder was created.
  public func record(_ line: String) {
    let elapsed = ContinuousClock.now - started
    let milliseconds = elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    guard let data = try? JSONEncoder().encode(RecordedLine(atMilliseconds: Int(milliseconds), line: line)) else {
      return
    }
    try? handle.write(contentsOf: data + Data("\n".utf8))
  }

  /// Closes the file.
  public func close() { try? handle.close() }

  static func reason(_ error: StorageError) -> String {
    guard case .writeFailed(_, let reason) = error else { return "\(error)" }
    return reason
  }
}

/// `--replay FILE`: the commands of a recording, in order.
public enum Replay {
  /// The lines recorded in the file at `path`. Blank lines are skipped.
  /// - Throws: ``RecordingError/unreadable(path:reason:)`` if the file
  ///   cannot be read, ``RecordingError/malformed(path:line:)`` for the
  ///   first line that is not a recorded command.
  public static func lines(path: String) throws(RecordingError) -> [String] {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
      throw .unreadable(path: path, reason: "no such file")
    } catch {
      throw .unreadable(path: path, reason: (error as NSError).localizedFailureReason ?? "unreadable")
    }
    var lines: [String] = []
    let decoder = JSONDecoder()
    for (index, raw) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
      if raw.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
      guard let recorded = try? decoder.decode(RecordedLine.self, from: Data(raw)) else {
        throw .malformed(path: path, line: index + 1)
      }
      lines.append(recorded.line)
    }
    return lines
  }
}
