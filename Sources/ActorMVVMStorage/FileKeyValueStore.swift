import Foundation

/// A ``KeyValueStore`` in one JSON file, written atomically.
///
/// - **Atomic writes:** every change writes the whole map to a temporary
///   file beside the target, then `rename(2)`s it over the target. A crash
///   or failure before the rename leaves the previous file intact and
///   readable; a reader never sees half a file. On Linux the temporary file
///   is written with no name (`O_TMPFILE`) and named only once it is whole,
///   just before the rename: a crash while it is written leaves nothing.
/// - **Concurrency:** an actor. Calls are serialised, so concurrent writers
///   lose nothing; each `set` is durable (renamed into place) before it returns.
/// - **Corruption:** a file that is not a JSON object is moved aside to
///   `<name>.corrupt` (or `.corrupt-2`, … — never overwriting an earlier one),
///   the store starts from defaults, and a ``StorageWarning`` says so. A file
///   that exists but cannot be read is left untouched.
/// - **Shape:** a file that is a JSON object but fails the `shape` check
///   given at init (a value of the wrong type under a known key) is set
///   aside the same way, with ``StorageWarning/wrongShape(path:movedTo:reason:)``.
/// - **Privacy:** the file and its temporary files are created with mode
///   0600 (owner only): a store may hold secrets, such as a session's
///   tokens. Temporary files a crash left behind (`.<name>.<UUID>.tmp`: only
///   between naming and renaming, or where nameless files are not
///   available) are removed when the store loads, so deleting the file forgets what it
///   held. One process per file: a second process's temporary file would
///   be removed as stale (the REPL holds a ``DataDirectoryLock``).
/// - **Loading** happens on first use, so creating a store does no I/O.
public actor FileKeyValueStore: KeyValueStore {
  /// The file the store lives in.
  public nonisolated let url: URL
  private var values: [String: JSONValue]?
  private var warnings: [StorageWarning] = []
  /// Test hook: fail each write after the temporary file is written and
  /// named and before the rename, as a crash there would.
  var failBeforeRename = false
  /// Test hook: fail each write once the temporary file is written and
  /// before it is named, as a crash while writing would.
  var failBeforeNaming = false

  private let shape: @Sendable ([String: JSONValue]) -> String?

  /// A store in the file at `url`. `shape` checks a loaded file and returns
  /// why it is of the wrong shape, or nil if it is fine (by default every
  /// JSON object is).
  public init(url: URL, shape: @escaping @Sendable ([String: JSONValue]) -> String? = { _ in nil }) {
    self.url = url
    self.shape = shape
  }

  public func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String) throws(StorageError) -> T? {
    try load()[key].map { value throws(StorageError) in try value.decoded(as: T.self, key: key) }
  }

  public func set<T: Codable & Sendable>(_ value: T, forKey key: String) throws(StorageError) {
    try set([key: try JSONValue.encoded(value, key: key)])
  }

  public func set(_ changes: [String: JSONValue]) throws(StorageError) {
    var next = load()
    next.merge(changes) { $1 }
    try write(next)
    values = next
  }

  public func removeValue(forKey key: String) throws(StorageError) {
    var next = load()
    guard next.removeValue(forKey: key) != nil else { return }
    try write(next)
    values = next
  }

  public func takeWarnings() -> [StorageWarning] {
    _ = load()
    defer { warnings = [] }
    return warnings
  }

  func setFailBeforeRename(_ fail: Bool) { failBeforeRename = fail }
  func setFailBeforeNaming(_ fail: Bool) { failBeforeNaming = fail }

  // MARK: File I/O

  private func load() -> [String: JSONValue] {
    if let values { return values }
    let loaded = readFile()
    values = loaded
    return loaded
  }

  private func readFile() -> [String: JSONValue] {
    let manager = FileManager.default
    removeStaleTemporaryFiles()
    guard manager.fileExists(atPath: url.path) else { return [:] }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      warnings.append(.unreadableFile(path: url.path, reason: "\(error.localizedDescription)"))
      return [:]
    }
    var wrongShape: String?
    if let object = try? JSONDecoder().decode([String: JSONValue].self, from: data) {
      guard let reason = shape(object) else { return object }
      wrongShape = reason
    }
    let aside = corruptDestination()
    do {
      try manager.moveItem(at: url, to: aside)
      if let wrongShape {
        warnings.append(.wrongShape(path: url.path, movedTo: aside.path, reason: wrongShape))
      } else {
        warnings.append(.corruptFile(path: url.path, movedTo: aside.path))
      }
    } catch {
      warnings.append(.unreadableFile(path: url.path, reason: "corrupt, and could not be moved aside: \(error)"))
    }
    return [:]
  }

  /// Removes `.<name>.<UUID>.tmp` files beside the store: left by a crash
  /// between writing and renaming, they may hold what the store held.
  private func removeStaleTemporaryFiles() {
    let directory = url.deletingLastPathComponent()
    let prefix = ".\(url.lastPathComponent)."
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
    for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
      try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
    }
  }

  private func corruptDestination() -> URL {
    var candidate = url.appendingPathExtension("corrupt")
    var index = 2
    while FileManager.default.fileExists(atPath: candidate.path) {
      candidate = url.appendingPathExtension("corrupt-\(index)")
      index += 1
    }
    return candidate
  }

  private func write(_ values: [String: JSONValue]) throws(StorageError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let directory = url.deletingLastPathComponent()
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    let data: Data
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      data = try encoder.encode(values)
    } catch {
      throw .writeFailed(path: url.path, reason: "\(error.localizedDescription)")
    }
    try writeTemporary(temporary, in: directory, contents: data)
    if failBeforeRename {
      throw .writeFailed(path: url.path, reason: "interrupted before the rename (test hook)")
    }
    guard rename(temporary.path, url.path) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw .writeFailed(path: url.path, reason: reason)
    }
  }

  /// Writes `data` to a new 0600 file named `temporary` (the store may
  /// hold a session's tokens): written nameless and named once whole where
  /// the system can, else written under its name.
  private func writeTemporary(_ temporary: URL, in directory: URL, contents data: Data) throws(StorageError) {
    if let handle = try PrivateFile.createNameless(in: directory, contents: data) {
      defer { try? handle.close() }
      if failBeforeNaming {
        throw .writeFailed(path: url.path, reason: "interrupted before the temporary file was named (test hook)")
      }
      if PrivateFile.name(handle, at: temporary) { return }
    }
    do {
      try PrivateFile.create(temporary, contents: data)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }
}
