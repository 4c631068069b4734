/// How every REPL line is cut into words: at any Unicode whitespace (a
/// tab, a no-break space, an ideographic space), the way a person reads
/// them. One tokenizer, so no command sees a `password<TAB>secret` as one
/// unknown word. A byte-order mark (U+FEFF, which an editor may put at a
/// script's start) separates like a space: it is never part of a word.
enum Words {
  /// Whether `character` separates words.
  static func separates(_ character: Character) -> Bool { character.isWhitespace || character == "\u{FEFF}" }

  /// `text` without whitespace at either end.
  static func trimmed(_ text: some StringProtocol) -> String {
    guard let first = text.firstIndex(where: { !separates($0) }),
      let last = text.lastIndex(where: { !separates($0) })
    else { return "" }
    return String(text[first...last])
  }

  /// The words of `text`.
  static func split(_ text: some StringProtocol) -> [String] {
    text.split(whereSeparator: separates).map { String($0) }
  }

  /// The first word and everything after it, trimmed.
  static func command(_ text: some StringProtocol) -> (first: String, rest: String) {
    let line = trimmed(text)
    guard let space = line.firstIndex(where: separates) else { return (line, "") }
    return (String(line[..<space]), trimmed(line[space...]))
  }

  /// `text` broken at spaces into lines at most `width` columns wide (as a
  /// terminal shows them: ``TerminalConsole/width(of:)-(String)``), every line
  /// after the first indented by two spaces; a word wider than the room
  /// keeps a line of its own, whole.
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      let candidate = line.isEmpty ? (lines.isEmpty ? "" : "  ") + word : line + " " + word
      if TerminalConsole.width(of: candidate) <= width || line.isEmpty || line == "  " {
        line = candidate
      } else {
        lines.append(line)
        line = "  " + word
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
