/// Why a line did nothing.
enum ReplError: Error, Equatable {
  case unknown(String, suggestion: String?, commands: [String])
  case usage(String)
  case invalid(String)

  var message: String {
    switch self {
    case .unknown(let word, let suggestion, let commands):
      "unknown command \(Self.quote(word)); " + (suggestion.map { "did you mean \"\($0)\"? " } ?? "")
        + "commands: " + commands.joined(separator: ", ")
    case .usage(let usage): "usage: \(usage)"
    case .invalid(let message): message
    }
  }

  /// How a line's text appears in an error: as a JSON string (control
  /// characters escaped, so nothing typed can drive the terminal), cut to
  /// `limit` characters with an ellipsis.
  static func quote(_ text: String, limit: Int = 40) -> String {
    JSONText.quote(text.count > limit ? String(text.prefix(limit)) + "…" : text)
  }
}
