/// A key the terminal sent, decoded from its bytes.
public enum EditorKey: Equatable, Sendable {
  case character(Character)
  case enter, tab, backspace, delete
  case left, right, up, down, home, end
  /// Ctrl-A … Ctrl-Z by letter (`controlKey("a")`), except those above.
  case control(Character)
}

/// Decodes terminal input bytes into keys: UTF-8 text, control bytes and
/// the VT100/xterm escape sequences for the arrows, Home, End and Delete.
/// Bytes of an incomplete sequence are kept for the next call.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// The keys in `bytes` (and in what was left pending before them).
  public mutating func keys(_ bytes: some Sequence<UInt8>) -> [EditorKey] {
    pending.append(contentsOf: bytes)
    var keys: [EditorKey] = []
    var index = 0
    decoding: while index < pending.count {
      let byte = pending[index]
      switch byte {
      case 0x1b:
        guard index + 1 < pending.count else { break decoding }
        let next = pending[index + 1]
        guard next == UInt8(ascii: "[") || next == UInt8(ascii: "O") else {
          index += 1  // a lone Escape: ignored
          continue
        }
        // CSI: parameters, then one final byte in 0x40…0x7e.
        var end = index + 2
        while end < pending.count, !(0x40...0x7e).contains(pending[end]) { end += 1 }
        guard end < pending.count else { break decoding }
        let parameters = String(decoding: pending[(index + 2)..<end], as: UTF8.self)
        switch (pending[end], parameters) {
        case (UInt8(ascii: "A"), _): keys.append(.up)
        case (UInt8(ascii: "B"), _): keys.append(.down)
        case (UInt8(ascii: "C"), _): keys.append(.right)
        case (UInt8(ascii: "D"), _): keys.append(.left)
        case (UInt8(ascii: "H"), _): keys.append(.home)
        case (UInt8(ascii: "F"), _): keys.append(.end)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): keys.append(.home)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): keys.append(.end)
        case (UInt8(ascii: "~"), "3"): keys.append(.delete)
        default: break  // a key this editor does not use
        }
        index = end + 1
      case 0x0d, 0x0a:
        keys.append(.enter)
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x7f, 0x08:
        keys.append(.backspace)
        index += 1
      case 0x01...0x1a:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        index += 1
      case 0x00...0x1f:
        index += 1  // other control bytes: ignored
      default:
        // One UTF-8 scalar: its length from the lead byte.
        let length = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2
        guard index + length <= pending.count else { break decoding }
        let text = String(decoding: pending[index..<(index + length)], as: UTF8.self)
        for character in text { keys.append(.character(character)) }
        index += length
      }
    }
    pending.removeFirst(index)
    return keys
  }
}

/// The line being typed, and what each key does to it: readline's keys,
/// session history, Tab completion and the hidden password. A value with
/// no I/O; ``TerminalConsole`` draws it.
public struct LineEditor: Sendable {
  /// What a key asks of the terminal.
  public enum Action: Equatable, Sendable {
    /// Redraw the line.
    case redraw
    /// The line is done: run it.
    case submit(String)
    /// Print `lines` above the prompt (completion candidates, a hint).
    case show([String])
    /// Exit: Ctrl-D on an empty line, or a second Ctrl-C on one.
    case quit
  }

  /// The text typed, as characters.
  public private(set) var text: [Character] = []
  /// The cursor, an index into ``text``.
  public private(set) var cursor = 0
  private var history: [String] = []
  /// Where Up/Down is in the history; `history.count` is the line being typed.
  private var historyIndex = 0
  /// The line being typed, kept while browsing the history.
  private var draft: [Character] = []
  private var lastWasInterrupt = false
  private var lastWasTab = false
  /// What Tab completes: given the words before the cursor's word, the
  /// candidates for it.
  private let candidates: @Sendable ([String]) -> [String]

  /// An empty editor; `candidates` returns, for the words typed before the
  /// one being completed, what that word can be.
  public init(candidates: @escaping @Sendable ([String]) -> [String] = { _ in [] }) {
    self.candidates = candidates
  }

  /// The line as typed.
  public var line: String { String(text) }

  /// How many characters at the start are shown: all but what follows a
  /// secret-taking word (that is never shown).
  public var visibleCount: Int { Self.visibleCount(of: text) }

  /// The characters shown of `text`: everything up to and including the
  /// first secret-taking word — `password`, or a word a typo away from it
  /// (`pasword`, `passwd`, `passwrod`: within two edits, swaps counted
  /// once) — and the one separator after it. So a mistyped secret command
  /// hides its secret too, wherever on the line the word is.
  static func visibleCount(of text: [Character]) -> Int {
    var start = 0
    while start < text.count {
      while start < text.count, Words.separates(text[start]) { start += 1 }
      var end = start
      while end < text.count, !Words.separates(text[end]) { end += 1 }
      if end < text.count, isSecretWord(String(text[start..<end])) { return end + 1 }
      start = end
    }
    return text.count
  }

  /// Whether `word` takes a secret after it: `password`, or within two
  /// edits of it (words of five letters or more, so `pass` or `word` do not).
  static func isSecretWord(_ word: String) -> Bool {
    let lowered = word.lowercased()
    return lowered == "password" || (lowered.count >= 5 && GlobalCommands.distance(lowered, "password") <= 2)
  }

  /// Whether a line is kept out of the history (it holds a password).
  static func isSecret(_ line: String) -> Bool { visibleCount(of: Array(line)) < line.count }

  /// Applies `key`.
  public mutating func handle(_ key: EditorKey) -> Action? {
    defer {
      if key != .control("c") { lastWasInterrupt = false }
      if key != .tab { lastWasTab = false }
    }
    switch key {
    case .character(let character):
      // Keys arrive a scalar at a time: one that extends the character
      // before the cursor (a skin tone, a combining accent, a joiner, a
      // flag's second half) joins it, so the line edits by what the eye
      // sees as one character.
      if cursor > 0, case let joined = String(text[cursor - 1]) + String(character), joined.count == 1 {
        text[cursor - 1] = Character(joined)
      } else {
        text.insert(character, at: cursor)
        cursor += 1
      }
    case .enter:
      let line = self.line
      if !line.trimmingCharacters(in: .whitespaces).isEmpty, !Self.isSecret(line), history.last != line {
        history.append(line)
      }
      historyIndex = history.count
      text = []
      cursor = 0
      return .submit(line)
    case .backspace, .control("h"):
      guard cursor > 0 else { return nil }
      cursor -= 1
      text.remove(at: cursor)
    case .delete:
      guard cursor < text.count else { return nil }
      text.remove(at: cursor)
    case .control("d"):
      if text.isEmpty { return .quit }
      guard cursor < text.count else { return nil }
      text.remove(at: cursor)
    case .left, .control("b"):
      cursor = max(0, cursor - 1)
    case .right, .control("f"):
      cursor = min(text.count, cursor + 1)
    case .home, .control("a"):
      cursor = 0
    case .end, .control("e"):
      cursor = text.count
    case .control("k"):
      text.removeSubrange(cursor...)
    case .control("u"):
      text.removeSubrange(..<cursor)
      cursor = 0
    case .control("w"):
      var start = cursor
      while start > 0, text[start - 1].isWhitespace { start -= 1 }
      while start > 0, !text[start - 1].isWhitespace { start -= 1 }
      text.removeSubrange(start..<cursor)
      cursor = start
    case .control("c"):
      if text.isEmpty {
        if lastWasInterrupt { return .quit }
        lastWasInterrupt = true
        return .show(["(Ctrl-C again, Ctrl-D or quit to exit)"])
      }
      text = []
      cursor = 0
      historyIndex = history.count
    case .up, .control("p"):
      guard historyIndex > 0 else { return nil }
      if historyIndex == history.count { draft = text }
      historyIndex -= 1
      text = Array(history[historyIndex])
      cursor = text.count
    case .down, .control("n"):
      guard historyIndex < history.count else { return nil }
      historyIndex += 1
      text = historyIndex == history.count ? draft : Array(history[historyIndex])
      cursor = text.count
    case .tab:
      return complete()
    case .control("l"):
      return .redraw
    default:
      return nil
    }
    return .redraw
  }

  /// Tab: completes the word at the cursor from ``candidates``: a single
  /// match in full (and a space), several to their common prefix; a second
  /// Tab with nothing to add lists them.
  private mutating func complete() -> Action? {
    guard cursor == text.count else { return nil }
    var start = cursor
    while start > 0, !text[start - 1].isWhitespace { start -= 1 }
    let word = String(text[start..<cursor])
    let before = String(text[..<start]).split(whereSeparator: \.isWhitespace).map(String.init)
    let matches = candidates(before).filter { $0.lowercased().hasPrefix(word.lowercased()) }.sorted()
    guard let first = matches.first else { return nil }
    if matches.count == 1 {
      replace(from: start, with: first + (first.hasSuffix("=") || first.hasSuffix("/") ? "" : " "))
      return .redraw
    }
    var common = first
    for match in matches.dropFirst() {
      while !match.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
    }
    if common.count > word.count {
      replace(from: start, with: common)
      return .redraw
    }
    let wasTab = lastWasTab
    lastWasTab = true
    return wasTab ? .show([matches.joined(separator: "  ")]) : nil
  }

  private mutating func replace(from start: Int, with word: String) {
    text.replaceSubrange(start..<cursor, with: Array(word))
    cursor = start + word.count
  }
}
