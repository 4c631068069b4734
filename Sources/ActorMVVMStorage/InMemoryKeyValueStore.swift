/// A ``KeyValueStore`` in memory, for tests and previews. An actor: calls
/// are serialised, so concurrent writers lose nothing.
public actor InMemoryKeyValueStore: KeyValueStore {
  private var values: [String: JSONValue]

  public init(_ values: [String: JSONValue] = [:]) { self.values = values }

  public func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String) throws(StorageError) -> T? {
    try values[key].map { value throws(StorageError) in try value.decoded(as: T.self, key: key) }
  }

  public func set<T: Codable & Sendable>(_ value: T, forKey key: String) throws(StorageError) {
    values[key] = try JSONValue.encoded(value, key: key)
  }

  public func set(_ values: [String: JSONValue]) {
    self.values.merge(values) { $1 }
  }

  public func removeValue(forKey key: String) {
    values[key] = nil
  }

  public func takeWarnings() -> [StorageWarning] { [] }

  /// Everything stored.
  public var snapshot: [String: JSONValue] { values }
}

extension JSONValue {
  static func encoded(_ value: some Encodable, key: String) throws(StorageError) -> JSONValue {
    do {
      return try JSONValue(encoding: value)
    } catch {
      throw .unencodable(key: key, reason: "\(error)")
    }
  }

  func decoded<T: Decodable>(as type: T.Type, key: String) throws(StorageError) -> T {
    do {
      return try decode(as: T.self)
    } catch {
      throw .typeMismatch(key: key, expected: "\(T.self)")
    }
  }
}
