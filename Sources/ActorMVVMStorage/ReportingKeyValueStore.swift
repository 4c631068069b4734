/// A ``KeyValueStore`` that reports every failed write, then rethrows it:
/// code that saves with `try?` (a session that must not stop the app when
/// the disk is full) is still heard. Reads and warnings pass through.
///
/// `report` is called on the calling task, once per failed write, with
/// ``StorageWarning/writeFailed(_:)``; it must not block.
public struct ReportingKeyValueStore: KeyValueStore {
  private let base: any KeyValueStore
  private let report: @Sendable (StorageWarning) -> Void

  /// `base`, with its failed writes reported to `report`.
  public init(_ base: any KeyValueStore, report: @escaping @Sendable (StorageWarning) -> Void) {
    self.base = base
    self.report = report
  }

  public func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String) async throws(StorageError) -> T? {
    try await base.value(type, forKey: key)
  }

  public func set<T: Codable & Sendable>(_ value: T, forKey key: String) async throws(StorageError) {
    try await reporting { () async throws(StorageError) in try await base.set(value, forKey: key) }
  }

  public func set(_ values: [String: JSONValue]) async throws(StorageError) {
    try await reporting { () async throws(StorageError) in try await base.set(values) }
  }

  public func removeValue(forKey key: String) async throws(StorageError) {
    try await reporting { () async throws(StorageError) in try await base.removeValue(forKey: key) }
  }

  public func takeWarnings() async -> [StorageWarning] { await base.takeWarnings() }

  private func reporting(_ write: () async throws(StorageError) -> Void) async throws(StorageError) {
    do {
      try await write()
    } catch {
      report(.writeFailed(error.description))
      throw error
    }
  }
}
