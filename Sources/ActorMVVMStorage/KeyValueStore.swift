/// Persistent key–value storage for feature records (FindNumber's "Round",
/// "BestRecord", "CurrentRecord"): the seam between a feature and the disk.
///
/// Concurrency contract for conformers: `Sendable`; calls may come from any
/// task concurrently and each is atomic (a reader sees a whole earlier write
/// or none of it; concurrent writers lose nothing). Values are any
/// `Codable & Sendable` type, stored as JSON.
public protocol KeyValueStore: Sendable {
  /// The value for `key` as `T`, or nil when absent.
  /// - Throws: ``StorageError/typeMismatch(key:expected:)`` when the stored
  ///   value is not a `T`.
  func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String) async throws(StorageError) -> T?

  /// Stores `value` under `key` and makes it durable before returning.
  func set<T: Codable & Sendable>(_ value: T, forKey key: String) async throws(StorageError)

  /// Stores several values in one durable write (all or none).
  func set(_ values: [String: JSONValue]) async throws(StorageError)

  /// Removes `key`.
  func removeValue(forKey key: String) async throws(StorageError)

  /// Problems met while loading (a corrupt file set aside, say), oldest
  /// first, for the caller to surface. Reading clears them.
  func takeWarnings() async -> [StorageWarning]
}

/// A storage failure, as a value.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The stored value for `key` is not of the requested type.
  case typeMismatch(key: String, expected: String)
  /// The value could not be encoded as JSON.
  case unencodable(key: String, reason: String)
  /// Writing the file failed; the previous contents are intact.
  case writeFailed(path: String, reason: String)

  public var description: String {
    switch self {
    case .typeMismatch(let key, let expected): "stored value for \"\(key)\" is not \(expected)"
    case .unencodable(let key, let reason): "cannot encode the value for \"\(key)\": \(reason)"
    case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
    }
  }
}

/// Something the store recovered from on its own, for the user to know.
public enum StorageWarning: Sendable, Equatable, CustomStringConvertible {
  /// The file was not valid JSON; it was moved aside to `movedTo` and the
  /// store started from defaults.
  case corruptFile(path: String, movedTo: String)
  /// The file could not be read at all; the store started from defaults and
  /// will not overwrite it until a write succeeds in replacing it.
  case unreadableFile(path: String, reason: String)
  /// The file was JSON but not of the shape the app expects (`reason`);
  /// it was moved aside to `movedTo` and the store started from defaults.
  case wrongShape(path: String, movedTo: String, reason: String)
  /// A write failed (`StorageError/writeFailed`): what it would have saved
  /// is kept in memory only.
  case writeFailed(String)

  public var description: String {
    switch self {
    case .wrongShape(let path, let movedTo, let reason):
      "\(path) is not what this app writes (\(reason)); kept it as \(movedTo) and started from defaults"
    case .writeFailed(let reason): "not saved: \(reason)"
    case .corruptFile(let path, let movedTo): "\(path) was corrupt; kept it as \(movedTo) and started from defaults"
    case .unreadableFile(let path, let reason): "cannot read \(path) (\(reason)); started from defaults"
    }
  }
}

extension KeyValueStore {
  /// The value for `key`, or `defaultValue` when it is absent or unreadable.
  public func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String, default defaultValue: T) async -> T {
    ((try? await value(type, forKey: key)) ?? nil) ?? defaultValue
  }
}
