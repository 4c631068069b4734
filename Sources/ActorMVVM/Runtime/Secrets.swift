import ActorMVVMSupport

/// The one rule for what is a secret, and the one way to print a value
/// without its secrets, shared by traces, the REPL and the network log.
///
/// A secret is a field, enum case, dictionary key, query parameter, header
/// or JSON field named for one: one of the words of its name (split at
/// camelCase humps, `_`, `-` and other non-letters; case-insensitive) is,
/// begins with or ends with token, secret, password or authorization, or
/// is or ends with key — plurals too. So `apiKey`, `X-Api-Key`, `apikey`,
/// `refresh_token`, `tokens`, `passwordChanged`, `client_secret` are
/// secrets, and `keywords` or `keyboard` are not.
public enum Secrets {
  /// What a secret is replaced with.
  public static let mask = "•••"

  /// How deep ``describe(_:)`` walks, and how many elements of one
  /// collection it shows; past either it prints `…`, never an unwalked value.
  public static let maximumDepth = Reflection.maximumDepth
  /// See ``maximumDepth``.
  public static let maximumElements = 64

  /// Whether a field, case, key, query parameter, header or JSON field of
  /// this name holds a secret.
  public static func isSecret(_ name: String) -> Bool {
    words(of: name).contains { word in
      let singular = word.hasSuffix("s") ? String(word.dropLast()) : word
      return [word, singular].contains { word in
        word.hasSuffix("key")
          || ["token", "secret", "password", "authorization"].contains { word.hasPrefix($0) || word.hasSuffix($0) }
      }
    }
  }

  /// The lowercased words of a name: split at every character that is not
  /// a letter or digit, and before an uppercase letter that follows a
  /// lowercase one (`accessToken` → access, token; `XApiKey` → xapi, key).
  static func words(of name: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousWasLower = false
    for character in name {
      guard character.isLetter || character.isNumber else {
        if !current.isEmpty { words.append(current) }
        current = ""
        previousWasLower = false
        continue
      }
      if character.isUppercase, previousWasLower {
        words.append(current)
        current = ""
      }
      current += character.lowercased()
      previousWasLower = character.isLowercase
    }
    if !current.isEmpty { words.append(current) }
    return words
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
    let shape = Reflection(value)
    switch shape {  // a leaf has nothing inside it to hide
    case .leaf: return String(reflecting: value)
    case .enumCase(let name, nil): return name
    default: break
    }
    guard depth < maximumDepth else { return "…" }
    let next = depth + 1
    switch shape {
    case .leaf, .enumCase(_, nil): return String(reflecting: value)  // handled above
    case .enumCase(let name, let payload?):
      if isSecret(name) { return "\(name)(\(mask))" }
      if case .tuple(let fields) = Reflection(payload) {
        return "\(name)(" + self.fields(fields, depth: next).joined(separator: ", ") + ")"
      }
      return "\(name)(\(describe(payload, depth: next)))"
    case .optional(let wrapped):
      return wrapped.map { "Optional(" + describe($0, depth: next) + ")" } ?? "nil"
    case .tuple(let fields):
      return "(" + self.fields(fields, depth: next).joined(separator: ", ") + ")"
    case .collection(let elements):
      return "[" + self.elements(elements) { describe($0, depth: next) }.joined(separator: ", ") + "]"
    case .set(let elements):
      return "Set([" + self.elements(elements) { describe($0, depth: next) }.joined(separator: ", ") + "])"
    case .dictionary(let entries):
      if entries.isEmpty { return "[:]" }
      return "["
        + elements(entries) { pair in
          guard let (key, value) = Reflection.entry(pair) else { return describe(pair, depth: next) }
          let secret = (key as? String).map(isSecret) ?? false
          return "\(describe(key, depth: next)): " + (secret ? mask : describe(value, depth: next))
        }.joined(separator: ", ") + "]"
    case .record(let type, let fields):
      return "\(type)(" + self.fields(fields, depth: next).joined(separator: ", ") + ")"
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

  private static func fields(_ children: Mirror.Children, depth: Int) -> [String] {
    let shown = children.prefix(maximumElements).map { child -> String in
      guard let name = Reflection.name(child) else { return describe(child.value, depth: depth) }
      return "\(name): " + (isSecret(name) ? mask : describe(child.value, depth: depth))
    }
    return children.count > maximumElements ? shown + ["…"] : shown
  }

  private static func elements(_ children: Mirror.Children, _ describe: (Any) -> String) -> [String] {
    let shown = children.prefix(maximumElements).map { describe($0.value) }
    return children.count > maximumElements ? shown + ["…"] : shown
  }

  private static func mayHoldSecret(_ value: Any, depth: Int) -> Bool {
    let children: Mirror.Children
    switch Reflection(value) {
    case .leaf, .enumCase(_, nil), .optional(nil): return false
    case .enumCase(let name, let payload?):
      guard depth < maximumDepth else { return true }
      return isSecret(name) || mayHoldSecret(payload, depth: depth + 1)
    case .optional(let wrapped?):
      guard depth < maximumDepth else { return true }
      return mayHoldSecret(wrapped, depth: depth + 1)
    case .dictionary(let entries):
      guard depth < maximumDepth else { return !entries.isEmpty }
      return entries.contains { pair in
        guard let (key, value) = Reflection.entry(pair.value) else { return true }  // not a pair: assume the worst
        if let key = key as? String, isSecret(key) { return true }
        return mayHoldSecret(key, depth: depth + 1) || mayHoldSecret(value, depth: depth + 1)
      }
    case .record(_, let fields), .tuple(let fields), .collection(let fields), .set(let fields):
      children = fields
    }
    if children.isEmpty { return false }
    guard depth < maximumDepth else { return true }
    return children.contains { child in
      if let label = child.label, isSecret(label) { return true }
      return mayHoldSecret(child.value, depth: depth + 1)
    }
  }
}
