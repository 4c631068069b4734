import Foundation

/// Any JSON value: how stores keep values of any `Codable` type in one file.
public enum JSONValue: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      // Whole numbers stay whole ("3", not "3.0").
      if value.rounded() == value, abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// `value` as JSON.
  public init(encoding value: some Encodable) throws {
    let data = try JSONEncoder().encode(value)
    self = try JSONDecoder().decode(JSONValue.self, from: data)
  }

  /// This JSON as a `T`.
  public func decode<T: Decodable>(as type: T.Type) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
  }
}

extension [String: JSONValue] {
  /// Why this stored map is not of the expected shape: the first key in
  /// `expected` whose value is present but does not decode as its type;
  /// nil when every present one does. For a ``FileKeyValueStore``'s
  /// `shape` check.
  public func shapeProblem(_ expected: [(key: String, type: any Decodable.Type)]) -> String? {
    for (key, type) in expected {
      guard let value = self[key] else { continue }
      func decodes<T: Decodable>(_: T.Type) -> Bool {
        guard let data = try? JSONEncoder().encode(value) else { return false }
        return (try? JSONDecoder().decode(T.self, from: data)) != nil
      }
      if !decodes(type) { return "\"\(key)\" is not a \(type)" }
    }
    return nil
  }
}
