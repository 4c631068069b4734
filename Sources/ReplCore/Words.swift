/// How every REPL line is cut into words: at any Unicode whitespace (a
/// tab, a no-break space, an ideographic space), the way a person reads
/// them. One tokenizer, so no command sees a `password<TAB>secret` as one
/// unknown word.
enum Words {
  /// `text` without whitespace at either end.
  static func trimmed(_ text: some StringProtocol) -> String {
    guard let first = text.firstIndex(where: { !$0.isWhitespace }),
      let last = text.lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(text[first...last])
  }

  /// The words of `text`.
  static func split(_ text: some StringProtocol) -> [String] {
    text.split(whereSeparator: { (character: Character) in character.isWhitespace }).map { String($0) }
  }

  /// The first word and everything after it, trimmed.
  static func command(_ text: some StringProtocol) -> (first: String, rest: String) {
    let line = trimmed(text)
    guard let space = line.firstIndex(where: \.isWhitespace) else { return (line, "") }
    return (String(line[..<space]), trimmed(line[space...]))
  }
}
