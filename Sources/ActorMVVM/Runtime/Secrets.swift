/// The one rule for what is a secret, and the one way to print a value
/// without its secrets, shared by traces, the REPL and the network log.
///
/// A secret is a field, enum case, dictionary key, query parameter, header
/// or JSON field whose name contains key, token, secret, password or
/// authorization (case-insensitive).
public enum Secrets {
  /// What a secret is replaced with.
  public static let mask = "•••"

  /// How deep ``describe(_:)`` walks, and how many elements of one
  /// collection it shows; past either it prints `…`, never an unwalked value.
  public static let maximumDepth = 12
  /// See ``maximumDepth``.
  public static let maximumElements = 64

  /// Whether a field, case, key, query parameter, header or JSON field of
  /// this name holds a secret.
  public static func isSecret(_ name: String) -> Bool {
    let lowered = name.lowercased()
    return ["key", "token", "secret", "password", "authorization"].contains { lowered.contains($0) }
  }

  /// `value` described much as `String(reflecting:)` would, but walked
  /// whole — structs, classes, tuples, optionals, enum cases and their
  /// payloads, arrays, sets and dictionaries — so that whatever sits under
  /// a field, case or string dictionary key named like a secret shows
  /// ``mask``: `passwordChanged(•••)`,
  /// `Session(member: "alice", accessToken: •••)`,
  /// `["Authorization": •••]`. A `Duration` prints as `10.4 s` or `300 ms`.
  /// Leaves (strings, numbers, types without
  /// children) print as `String(reflecting:)` does. Past ``maximumDepth``
  /// or ``maximumElements`` it prints `…`.
  public static func describe(_ value: Any) -> String {
    describe(value, depth: 0)
  }

  /// Whether walking `value` meets a field, case or key named like a
  /// secret (bounded like ``describe(_:)``; past the bound it answers yes).
  public static func mayHoldSecret(_ value: Any) -> Bool {
    mayHoldSecret(value, depth: 0)
  }

  private static func describe(_ value: Any, depth: Int) -> String {
    if let duration = value as? Duration { return describe(duration) }
    let mirror = Mirror(reflecting: value)
    if mirror.children.isEmpty, mirror.displayStyle != .optional, mirror.displayStyle != .collection,
      mirror.displayStyle != .dictionary, mirror.displayStyle != .set
    {
      // A leaf: nothing inside it to hide. A case without payload by its name.
      return mirror.displayStyle == .enum ? "\(value)" : String(reflecting: value)
    }
    guard depth < maximumDepth else { return "…" }
    let next = depth + 1
    switch mirror.displayStyle {
    case .enum:
      guard let payload = mirror.children.first, let label = payload.label else { return "…" }
      if isSecret(label) { return "\(label)(\(mask))" }
      let inner = Mirror(reflecting: payload.value)
      if inner.displayStyle == .tuple {
        return "\(label)(" + fields(of: inner, depth: next).joined(separator: ", ") + ")"
      }
      return "\(label)(\(describe(payload.value, depth: next)))"
    case .optional:
      return mirror.children.first.map { "Optional(" + describe($0.value, depth: next) + ")" } ?? "nil"
    case .tuple:
      return "(" + fields(of: mirror, depth: next).joined(separator: ", ") + ")"
    case .collection:
      return "[" + elements(of: mirror) { describe($0, depth: next) }.joined(separator: ", ") + "]"
    case .set:
      return "Set([" + elements(of: mirror) { describe($0, depth: next) }.joined(separator: ", ") + "])"
    case .dictionary:
      if mirror.children.isEmpty { return "[:]" }
      return "["
        + elements(of: mirror) { pair in
          let entry = Mirror(reflecting: pair).children.map(\.value)
          guard entry.count == 2 else { return describe(pair, depth: next) }
          let key = describe(entry[0], depth: next)
          let secret = (entry[0] as? String).map(isSecret) ?? false
          return "\(key): " + (secret ? mask : describe(entry[1], depth: next))
        }.joined(separator: ", ") + "]"
    default:  // struct, class, or a custom mirror
      return "\(mirror.subjectType)(" + fields(of: mirror, depth: next).joined(separator: ", ") + ")"
    }
  }

  /// A duration as a person reads it: `10.4 s`, `300 ms`, `12 µs`.
  static func describe(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let total = Double(seconds) + Double(attoseconds) / 1e18
    let magnitude = abs(total)
    if magnitude >= 1 { return "\((total * 10).rounded() / 10) s" }
    if magnitude >= 0.001 { return "\(Int((total * 1_000).rounded())) ms" }
    return "\(Int((total * 1_000_000).rounded())) µs"
  }

  private static func fields(of mirror: Mirror, depth: Int) -> [String] {
    let shown = mirror.children.prefix(maximumElements).map { child -> String in
      guard let label = child.label, !label.hasPrefix(".") else { return describe(child.value, depth: depth) }
      return "\(label): " + (isSecret(label) ? mask : describe(child.value, depth: depth))
    }
    return mirror.children.count > maximumElements ? shown + ["…"] : shown
  }

  private static func elements(of mirror: Mirror, _ describe: (Any) -> String) -> [String] {
    let shown = mirror.children.prefix(maximumElements).map { describe($0.value) }
    return mirror.children.count > maximumElements ? shown + ["…"] : shown
  }

  private static func mayHoldSecret(_ value: Any, depth: Int) -> Bool {
    let mirror = Mirror(reflecting: value)
    if mirror.children.isEmpty { return false }
    guard depth < maximumDepth else { return true }
    if mirror.displayStyle == .dictionary {
      for pair in mirror.children {
        let entry = Mirror(reflecting: pair.value).children.map(\.value)
        if let key = entry.first as? String, isSecret(key) { return true }
        if entry.contains(where: { mayHoldSecret($0, depth: depth + 1) }) { return true }
      }
      return false
    }
    for child in mirror.children {
      if let label = child.label, isSecret(label) { return true }
      if mayHoldSecret(child.value, depth: depth + 1) { return true }
    }
    return false
  }
}
