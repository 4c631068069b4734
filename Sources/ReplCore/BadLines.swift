import Foundation

/// Lines the REPL must reject, for fuzzing: random garbage, known commands
/// with bad arguments, and extra words after commands that take none. Each
/// is one the REPL answers with one `error:` line and no change, whatever
/// screen is on top (no word in it is a global command that succeeds).
/// The same generator state yields the same lines, so a failure can be
/// replayed from its seed.
public struct BadLines<Random: RandomNumberGenerator>: IteratorProtocol {
  private var random: Random

  /// Lines drawn from `random`.
  public init(_ random: Random) { self.random = random }

  static var alphabet: [Character] { Array("abcxyz019 -_?/:!@#é한\u{1b}[") }
  static var badArguments: [String] {
    [
      "check", "open", "deeplink nope://", "tap 1", "check 1 2", "reset now", "check 4", "check -7", "check 2147483648",
      "quit now", "back 2 3", "open weather please", "exit 1", "help me", "state all", "wait", "wait -5", "wait x",
    ]
  }

  /// The next bad line (never nil).
  public mutating func next() -> String? {
    while true {
      let line: String
      switch Int.random(in: 0..<3, using: &random) {
      case 0:
        let length = Int.random(in: 1...12, using: &random)
        line = String((0..<length).map { _ in Self.alphabet.randomElement(using: &random)! })
      case 1:
        let word = ["zz", "bogus", "back2", "chek", "opn", "cty", "lgin"].randomElement(using: &random)!
        line = word + " " + String(Int.random(in: -9...99, using: &random)) + "x"
      default:
        line = Self.badArguments.randomElement(using: &random)!
      }
      let trimmed = Words.trimmed(line)
      // Blank lines and "# comments" are skipped silently, by design; a
      // lone "&" or a command word alone may be valid on some screen.
      let first = Words.split(trimmed).first ?? ""
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasSuffix("&")
        || Self.valid.contains(first)
          && !trimmed.contains(where: \.isWhitespace)
      {
        continue
      }
      return line
    }
  }

  /// Words that alone are a valid command on some screen: the global
  /// commands that need no words (from ``GlobalCommand``), and the screen
  /// commands that take none.
  static var valid: Set<String> {
    Set(GlobalCommand.allCases.filter(\.completeAlone).flatMap(\.spec.names)).union([
      "start", "reset", "retry", "refresh", "login", "route", "detail", "close", "load", "total", "submit", "logout",
    ])
  }
}
