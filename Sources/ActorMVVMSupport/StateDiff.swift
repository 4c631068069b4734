/// The fields in which two values differ, found by reflection: what a
/// failing `FeatureTester` assertion prints instead of two whole states.
///
/// Structs, classes, tuples, optionals and enum payloads are walked field
/// by field (as ``Reflection`` sees them); anything else (numbers, strings, collections) is compared by
/// its `String(reflecting:)` description and reported whole. Paths use the
/// stored property names: `route.start.latitude`. The walk goes at most
/// ``Reflection/maximumDepth`` levels down (a cyclic class graph ends there),
/// then compares by description.
public enum StateDiff {
  /// One field that differs: its path, and each side's description.
  public struct Change: Equatable, Sendable {
    /// The field's path by stored property names (`route.start.latitude`); empty for the value itself.
    public let path: String
    /// The old value, as the diff's `describe` shows it.
    public let old: String
    /// The new value, as the diff's `describe` shows it.
    public let new: String
  }

  /// The fields in which `old` and `new` differ, in declaration order.
  /// Values are compared by `String(reflecting:)` and reported as
  /// `describe` says (a trace passes `Secrets.describe(_:)`).
  public static func changes<Value>(
    from old: Value, to new: Value, describe: (Any) -> String = { String(reflecting: $0) }
  ) -> [Change] {
    var changes: [Change] = []
    walk("", old, new, depth: 0, describe: describe, into: &changes)
    return changes
  }

  /// The changes as `− path: old` / `+ path: new` lines, indented.
  public static func lines<Value>(from old: Value, to new: Value, indent: String = "  ") -> String {
    changes(from: old, to: new).map { change in
      let path = change.path.isEmpty ? "(value)" : change.path
      return "\(indent)− \(path): \(change.old)\n\(indent)+ \(path): \(change.new)"
    }.joined(separator: "\n")
  }

  private static func walk(
    _ path: String, _ old: Any, _ new: Any, depth: Int, describe: (Any) -> String, into changes: inout [Change]
  ) {
    func join(_ label: String?) -> String {
      let label = label ?? "?"
      return path.isEmpty ? label : "\(path).\(label)"
    }
    func walkFields(_ old: Mirror.Children, _ new: Mirror.Children) -> Bool {
      guard old.count == new.count else { return false }
      for (oldChild, newChild) in zip(old, new) {
        walk(join(oldChild.label), oldChild.value, newChild.value, depth: depth + 1, describe: describe, into: &changes)
      }
      return true
    }
    switch depth < Reflection.maximumDepth ? (Reflection(old), Reflection(new)) : (.leaf, .leaf) {
    case (.record(let oldType, let oldFields), .record(let newType, let newFields)) where oldType == newType:
      if walkFields(oldFields, newFields) { return }
    case (.tuple(let oldFields), .tuple(let newFields)):
      if walkFields(oldFields, newFields) { return }
    case (.optional(let oldValue?), .optional(let newValue?)):
      return walk(path, oldValue, newValue, depth: depth + 1, describe: describe, into: &changes)
    case (.enumCase(let oldCase, let oldPayload?), .enumCase(let newCase, let newPayload?)) where oldCase == newCase:
      return walk(join(oldCase), oldPayload, newPayload, depth: depth + 1, describe: describe, into: &changes)
    default: break
    }
    guard String(reflecting: old) != String(reflecting: new) else { return }
    changes.append(Change(path: path, old: describe(old), new: describe(new)))
  }
}
