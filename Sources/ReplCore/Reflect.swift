import ActorMVVM
import Storage

/// Turns outputs (any enum) into a name and a JSON value by reflection,
/// masking secret fields (tokens, passwords, keys) on the way.
enum Reflect {
  /// `failed(LoginError.error(code: 401))` → ("failed", "401 Error").
  static func output(_ value: Any) -> (name: String, value: JSONValue, text: String) {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .enum, let child = mirror.children.first, let name = child.label else {
      return ("\(value)", .null, "")
    }
    if Secrets.isSecret(name) { return (name, .string(Secrets.mask), Secrets.mask) }  // tokenIssued(•••)
    let payload = child.value
    return (name, json(payload), text(payload))
  }

  /// A value's text: its own description when nothing in it is named
  /// like a secret, else its fields with the secrets masked.
  static func text(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    if let convertible = value as? CustomStringConvertible, mirror.displayStyle != .tuple,
      !Secrets.mayHoldSecret(value)
    {
      return convertible.description
    }
    if mirror.displayStyle == .tuple || mirror.displayStyle == .struct {
      return mirror.children.map { child in
        let label = child.label.map { $0.hasPrefix(".") ? "" : "\($0): " } ?? ""
        return label + (isSecret(child.label) ? Secrets.mask : text(child.value))
      }.joined(separator: ", ")
    }
    return Secrets.describe(value)
  }

  static func json(_ value: Any) -> JSONValue {
    switch value {
    case let value as Bool: return .bool(value)
    case let value as Int: return .number(Double(value))
    case let value as Double: return .number(value)
    case let value as String: return .string(value)
    case let value as Duration:
      return .number(Double(value.components.seconds) * 1_000 + Double(value.components.attoseconds) / 1e15)
    default: break
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { json($0.value) } ?? .null
    case .collection, .set:
      return .array(mirror.children.map { json($0.value) })
    case .enum:
      if let error = value as? any Error, !Secrets.mayHoldSecret(error) {
        return .string("\(error)")
      }
      guard let child = mirror.children.first, let label = child.label else { return .string("\(value)") }
      return .object([label: isSecret(label) ? .string(Secrets.mask) : json(child.value)])
    case .dictionary:
      var object: [String: JSONValue] = [:]
      for pair in mirror.children {
        let entry = Mirror(reflecting: pair.value).children.map(\.value)
        guard entry.count == 2 else { continue }
        let key = entry[0] as? String ?? Secrets.describe(entry[0])
        object[key] = isSecret(key) ? .string(Secrets.mask) : json(entry[1])
      }
      return .object(object)
    case .struct, .class, .tuple:
      var object: [String: JSONValue] = [:]
      for (index, child) in mirror.children.enumerated() {
        let label = child.label.map { $0.hasPrefix(".") ? "\(index)" : $0 } ?? "\(index)"
        object[label] = isSecret(label) ? .string(Secrets.mask) : json(child.value)
      }
      return .object(object)
    default:
      return .string(Secrets.mayHoldSecret(value) ? Secrets.describe(value) : "\(value)")
    }
  }

  static func isSecret(_ label: String?) -> Bool { label.map(Secrets.isSecret) ?? false }
}
