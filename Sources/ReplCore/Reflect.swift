import ActorMVVM
import ActorMVVMStorage
import ActorMVVMSupport

/// Turns outputs (any enum) into a name and a JSON value by reflection
/// (``Reflection``, the walk ``Secrets`` uses too), masking secret fields
/// (tokens, passwords, keys) on the way. Bounded as `Secrets` is: at most
/// `Secrets.maximumDepth` levels down (a cyclic class graph ends there as
/// `…`).
enum Reflect {
  /// `failed(LoginError.error(code: 401))` → ("failed", "401 Error").
  static func output(_ value: Any) -> (name: String, value: JSONValue, text: String) {
    guard case .enumCase(let name, let payload?) = Reflection(value) else { return ("\(value)", .null, "") }
    if Secrets.isSecret(name) { return (name, .string(Secrets.mask), Secrets.mask) }  // tokenIssued(•••)
    return (name, json(payload), text(payload))
  }

  /// A value's text: its own description when nothing in it is named
  /// like a secret, else its fields with the secrets masked.
  static func text(_ value: Any, depth: Int = 0) -> String {
    guard depth < Secrets.maximumDepth else { return "…" }
    if let convertible = value as? CustomStringConvertible, !Secrets.mayHoldSecret(value) {
      return convertible.description  // (a tuple is never CustomStringConvertible)
    }
    let fields: Mirror.Children? =
      switch Reflection(value) {
      case .tuple(let fields): fields
      case .record(let type, let fields) where !(type is AnyClass): fields  // a struct's fields
      default: nil
      }
    guard let fields else { return Secrets.describe(value) }
    return fields.map { child in
      let name = Reflection.name(child)
      return (name.map { "\($0): " } ?? "") + (isSecret(name) ? Secrets.mask : text(child.value, depth: depth + 1))
    }.joined(separator: ", ")
  }

  static func json(_ value: Any, depth: Int = 0) -> JSONValue {
    guard depth < Secrets.maximumDepth else { return .string("…") }
    let inner = { (value: Any) in json(value, depth: depth + 1) }
    switch value {
    case let value as Bool: return .bool(value)
    case let value as Int: return .number(Double(value))
    case let value as Double: return .number(value)
    case let value as String: return .string(value)
    case let value as Duration:
      return .number(Double(value.components.seconds) * 1_000 + Double(value.components.attoseconds) / 1e15)
    default: break
    }
    switch Reflection(value) {
    case .optional(let wrapped):
      return wrapped.map(inner) ?? .null
    case .collection(let elements), .set(let elements):
      return .array(elements.map { inner($0.value) })
    case .enumCase(let name, let payload):
      if let error = value as? any Error, !Secrets.mayHoldSecret(error) {
        return .string("\(error)")
      }
      guard let payload else { return .string(name) }
      return .object([name: isSecret(name) ? .string(Secrets.mask) : inner(payload)])
    case .dictionary(let entries):
      var object: [String: JSONValue] = [:]
      for pair in entries {
        guard let (key, value) = Reflection.entry(pair.value) else { continue }
        let name = key as? String ?? Secrets.describe(key)
        object[name] = isSecret(name) ? .string(Secrets.mask) : inner(value)
      }
      return .object(object)
    case .record(_, let fields), .tuple(let fields):
      var object: [String: JSONValue] = [:]
      for (index, child) in fields.enumerated() {
        let name = Reflection.name(child) ?? "\(index)"
        object[name] = isSecret(name) ? .string(Secrets.mask) : inner(child.value)
      }
      return .object(object)
    case .leaf:
      return .string(Secrets.mayHoldSecret(value) ? Secrets.describe(value) : "\(value)")
    }
  }

  static func isSecret(_ label: String?) -> Bool { label.map(Secrets.isSecret) ?? false }
}
