import ActorMVVM
import ActorMVVMStorage

/// JSON text for REPL lines: compact, keys in the order given, so every
/// run prints the same bytes.
enum JSONText {
  static func encode(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let bool): return bool ? "true" : "false"
    case .number(let number):
      if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
      return String(number)
    case .string(let string): return quote(string)
    case .array(let items): return "[" + items.map(encode).joined(separator: ",") + "]"
    case .object(let members):
      return object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }
  }

  /// An object with keys in the given order.
  static func object(_ pairs: [(String, JSONValue)]) -> String {
    "{" + pairs.map { quote($0.0) + ":" + encode($0.1) }.joined(separator: ",") + "}"
  }

  static func quote(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
