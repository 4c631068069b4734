/// One level of a value as reflection sees it: the one place in the package
/// that reads `Mirror`. Masking secrets (`Secrets`, in ActorMVVM), diffing states
/// (``StateDiff``), naming an input's case (`FeatureTester`) and the REPL's
/// JSON each switch over these cases instead of walking mirrors of their own,
/// so all four agree on what a field, a case and a dictionary entry are.
///
/// Children stay lazy (`Mirror.Children`): a consumer that shows only the
/// first elements of a long array touches only those.
public enum Reflection {
  /// How deep the library's walks over a value go (the state diff, secret
  /// masking): a cyclic class graph ends there.
  public static let maximumDepth = 12

  /// A value with nothing inside it: a number, a string, a type without
  /// stored properties.
  case leaf
  /// An enum case: its name, and its payload if it has one (a tuple for
  /// several associated values).
  case enumCase(String, payload: Any?)
  /// `Optional`: the wrapped value, or nil.
  case optional(Any?)
  /// A struct or class (or a custom mirror): its type and its stored
  /// properties, labelled, in declaration order.
  case record(type: Any.Type, fields: Mirror.Children)
  /// A tuple: its elements; a label starting with `.` (`.0`) is no name.
  case tuple(Mirror.Children)
  /// An array or another collection: its elements.
  case collection(Mirror.Children)
  /// A set: its elements.
  case set(Mirror.Children)
  /// A dictionary: its entries, read with ``entry(_:)``.
  case dictionary(Mirror.Children)

  /// How `value` looks one level down.
  public init(_ value: Any) {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .enum:
      if let payload = mirror.children.first, let label = payload.label {
        self = .enumCase(label, payload: payload.value)
      } else if mirror.children.isEmpty {
        self = .enumCase(String(describing: value), payload: nil)
      } else {  // a custom mirror's unnamed children: walked as fields, never printed whole
        self = .record(type: mirror.subjectType, fields: mirror.children)
      }
    case .optional: self = .optional(mirror.children.first?.value)
    case .tuple: self = .tuple(mirror.children)
    case .collection: self = .collection(mirror.children)
    case .set: self = .set(mirror.children)
    case .dictionary: self = .dictionary(mirror.children)
    default:
      self = mirror.children.isEmpty ? .leaf : .record(type: mirror.subjectType, fields: mirror.children)
    }
  }

  /// A dictionary child's value as its key and value (nil for one that is
  /// not a pair, which a dictionary's never is).
  public static func entry(_ pair: Any) -> (key: Any, value: Any)? {
    let parts = Mirror(reflecting: pair).children.map(\.value)
    return parts.count == 2 ? (parts[0], parts[1]) : nil
  }

  /// A field's name, or nil for an unnamed one (a tuple's `.0`).
  public static func name(_ child: Mirror.Child) -> String? {
    guard let label = child.label, !label.hasPrefix(".") else { return nil }
    return label
  }

  /// The name of `value`'s enum case (`passwordChanged`), or its
  /// description when it is not an enum.
  public static func caseName(_ value: Any) -> String {
    if case .enumCase(let name, _) = Reflection(value) { return name }
    return String(describing: value)
  }

  /// `value` as text that equal values share however they were built: a
  /// struct's or class's fields, an enum's case and payload, a collection's
  /// elements, each as `String(reflecting:)` shows a leaf — except that a
  /// set's elements and a dictionary's entries are listed sorted by their
  /// text. (`String(reflecting:)` lists them in their storage's order,
  /// which depends on where the storage was allocated and in what order
  /// elements went in: two equal sets can print differently.) Below
  /// ``maximumDepth`` levels, `String(reflecting:)`.
  public static func canonicalDescription(_ value: Any) -> String {
    var text = ""
    appendCanonical(value, depth: 0, to: &text)
    return text
  }

  private static func appendCanonical(_ value: Any, depth: Int, to text: inout String) {
    guard depth < maximumDepth else { return text += String(reflecting: value) }
    // The commonest leaves, without a mirror.
    switch value {
    case let string as String: return text += String(reflecting: string)
    case let bool as Bool: return text += bool ? "true" : "false"
    case let int as Int: return text += String(int)
    case let double as Double: return text += String(reflecting: double)
    default: break
    }
    func append(_ children: Mirror.Children, named: Bool) {
      for (index, child) in children.enumerated() {
        if index > 0 { text += ", " }
        if named, let name = name(child) { text += name + ": " }
        appendCanonical(child.value, depth: depth + 1, to: &text)
      }
    }
    func sorted(_ texts: some Sequence<String>) -> String { texts.sorted().joined(separator: ", ") }
    switch Reflection(value) {
    case .leaf: text += String(reflecting: value)
    case .enumCase(let name, let payload):
      text += "." + name
      if let payload {
        text += "("
        appendCanonical(payload, depth: depth + 1, to: &text)
        text += ")"
      }
    case .optional(let wrapped):
      if let wrapped { appendCanonical(wrapped, depth: depth + 1, to: &text) } else { text += "nil" }
    case .record(let type, let fields):
      text += "\(type)("
      append(fields, named: true)
      text += ")"
    case .tuple(let elements):
      text += "("
      append(elements, named: true)
      text += ")"
    case .collection(let elements):
      text += "["
      append(elements, named: false)
      text += "]"
    case .set(let elements):
      text += "Set([" + sorted(elements.map { canonicalDescription($0.value) }) + "])"
    case .dictionary(let entries):
      let pairs = entries.map { pair in
        guard let (key, value) = entry(pair.value) else { return canonicalDescription(pair.value) }
        return canonicalDescription(key) + ": " + canonicalDescription(value)
      }
      text += "[" + (pairs.isEmpty ? ":" : sorted(pairs)) + "]"
    }
  }

  /// The payload of `value`'s enum case, if it has one.
  public static func payload(_ value: Any) -> Any? {
    if case .enumCase(_, let payload) = Reflection(value) { return payload }
    return nil
  }
}
