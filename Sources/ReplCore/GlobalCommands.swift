import ActorMVVMCoordinator
import InterviewApp

/// A command every screen takes, declared once: its spec here, its action
/// in `ReplSession.handle(_:)`'s exhaustive switch, the words that are a
/// whole command (`BadLines`) and Tab completion all come from this list.
enum GlobalCommand: CaseIterable, Sendable {
  case help, state, wait, back, open, deeplink, maintenance, quit

  /// Its name, usage line, aliases, and whether it takes words.
  var spec: CommandSpec {
    switch self {
    case .help: CommandSpec(name: "help", usage: "help", takesNoArguments: true)
    case .state: CommandSpec(name: "state", usage: "state [--all]")
    case .wait: CommandSpec(name: "wait", usage: "wait <milliseconds>")
    case .back: CommandSpec(name: "back", usage: "back", takesNoArguments: true)
    case .open: CommandSpec(name: "open", usage: GlobalCommands.openUsage)
    case .deeplink: CommandSpec(name: "deeplink", usage: "deeplink <actormvvm://…>")
    case .maintenance: CommandSpec(name: "maintenance", usage: "maintenance <on [notice]|off>")
    case .quit: CommandSpec(name: "quit", usage: "quit (or exit)", aliases: ["exit"], takesNoArguments: true)
    }
  }

  /// Whether the command's name alone is a whole command.
  var completeAlone: Bool {
    switch self {
    case .help, .state, .back, .quit: true
    case .wait, .open, .deeplink, .maintenance: false
    }
  }

  /// The global command `word` (lowercased) names, if any.
  static func named(_ word: String) -> GlobalCommand? { allCases.first { $0.spec.names.contains(word) } }
}

/// The global commands' specs, and the typo suggestion for a word that is
/// no command. Like screen commands, a command that takes no words rejects
/// extra ones with its usage line.
enum GlobalCommands {
  static var all: [CommandSpec] { GlobalCommand.allCases.map(\.spec) }

  /// `open`'s usage: every screen that opens by name, with its number if it takes one.
  static var openUsage: String {
    let names = openableScreens(InterviewApp.screens).map { screen in
      screen.parameterName.map { "\(screen.name) <\($0)>" } ?? screen.name
    }
    return "open <\(names.joined(separator: "|"))>"
  }

  /// The closest known command, if any is close enough to be a typo.
  /// Only for words a typo could have made (at most 32 characters): the
  /// distance costs the product of the lengths, and a pasted page is no typo.
  static func suggestion(for word: String, among names: [String]) -> String? {
    guard word.count <= 32 else { return nil }
    let scored = names.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
    guard let (name, score) = scored, score <= max(1, word.count / 3) else { return nil }
    return name
  }

  /// What an unknown first word most likely meant: a screen's name typed
  /// alone is `open` it; else the closest command; else the closest
  /// screen's name, to open.
  static func suggestion(forCommand word: String, among commands: [String], screens: [String]) -> String? {
    let lowered = word.lowercased()
    if screens.contains(lowered) { return "open \(lowered)" }
    if let command = suggestion(for: word, among: commands) { return command }
    return suggestion(for: word, among: screens).map { "open \($0)" }
  }

  /// The edit distance between `a` and `b` counting a swap of two
  /// neighbouring characters as one edit (the optimal-string-alignment
  /// Damerau–Levenshtein distance): `hlep` is one edit from `help`, as a
  /// person sees it, not two.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in 1...b.count {
        let substitution = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], beforePrevious[j - 2] + 1)
        }
      }
      (beforePrevious, previous) = (previous, current)
    }
    return previous[b.count]
  }
}
