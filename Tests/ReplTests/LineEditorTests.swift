import Foundation
import Testing

@testable import ReplCore

/// The keys a terminal sends.
enum Keys {
  static let left = "\u{1b}[D", right = "\u{1b}[C", up = "\u{1b}[A", down = "\u{1b}[B"
  static let home = "\u{1b}[H", end = "\u{1b}[F", delete = "\u{1b}[3~"
  static let backspace = "\u{7f}", tab = "\t", enter = "\r"
  static func control(_ letter: Character) -> String {
    String(UnicodeScalar(letter.asciiValue! - 0x60))
  }
}

@Suite("The line editor's keys, without a terminal")
struct LineEditorTests {
  func edit(_ typed: String, candidates: @escaping @Sendable ([String]) -> [String] = { _ in [] }) -> (
    LineEditor, [LineEditor.Action]
  ) {
    var decoder = KeyDecoder()
    var editor = LineEditor(candidates: candidates)
    var actions: [LineEditor.Action] = []
    for key in decoder.keys(Array(typed.utf8)) {
      if let action = editor.handle(key) { actions.append(action) }
    }
    return (editor, actions)
  }

  @Test("Left, Right, Home, End, Backspace and Delete edit where the cursor is")
  func cursorKeys() {
    #expect(edit("city Seol" + Keys.left + Keys.left + "u").0.line == "city Seuol")
    #expect(edit("ity" + Keys.home + "c" + Keys.end + " Seoul").0.line == "city Seoul")
    #expect(edit("cityy" + Keys.backspace).0.line == "city")
    #expect(edit("xcity" + Keys.home + Keys.delete).0.line == "city")
    #expect(edit("cty" + Keys.left + Keys.left + "i").0.line == "city")
    #expect(edit("ciy" + Keys.left + Keys.left + Keys.right + "t").0.line == "city")
  }

  @Test(
    "Editing goes by what the eye sees as one character: a skin-toned emoji, a family, a flag, an accent typed as a combining mark"
  )
  func graphemes() {
    // Each arrives a scalar at a time, as a terminal sends it.
    for cluster in ["👍🏽", "👨‍👩‍👧", "🇰🇷", "e\u{301}", "한"] {
      let (typed, _) = edit("a" + cluster + "b")
      #expect(typed.text == ["a", Character(cluster), "b"], "\(cluster)")
      #expect(edit("a" + cluster + Keys.backspace).0.line == "a", "\(cluster)")
      #expect(edit("a" + cluster + "b" + Keys.left + Keys.left + "x").0.line == "ax" + cluster + "b", "\(cluster)")
      #expect(edit("a" + cluster + "b" + Keys.left + Keys.left + Keys.delete).0.line == "ab", "\(cluster)")
    }
    // Two flags side by side stay two characters; a letter after a mark does not join it.
    #expect(edit("🇰🇷🇺🇸" + Keys.backspace).0.line == "🇰🇷")
    #expect(edit("e\u{301}x" + Keys.backspace).0.line == "e\u{301}")
    // Shown two columns wide, whatever its scalars.
    #expect(TerminalConsole.width(of: "👍🏽") == 2 && TerminalConsole.width(of: "🇰🇷") == 2)
  }

  @Test("Ctrl-A/E/K/U/W as readline; Ctrl-D deletes under the cursor on a line, exits on an empty one")
  func controlKeys() {
    #expect(edit("city Seoul" + Keys.control("a") + Keys.control("k")).0.line == "")
    #expect(edit("city Seoul" + Keys.left + Keys.control("u")).0.line == "l")
    #expect(edit("city New York" + Keys.control("w")).0.line == "city New ")
    #expect(edit("xhelp" + Keys.control("a") + Keys.control("d")).0.line == "help")
    #expect(edit(Keys.control("d")).1 == [.quit])
    #expect(edit("ab" + Keys.control("a") + "c" + Keys.control("e") + "d").0.line == "cabd")
  }

  @Test("Ctrl-C clears the line; on an empty line it says how to exit, and a second one exits")
  func interrupt() {
    let (editor, actions) = edit("city Seo" + Keys.control("c"))
    #expect(editor.line == "")
    #expect(actions.last == .redraw)
    #expect(edit(Keys.control("c")).1 == [.show(["(Ctrl-C again, Ctrl-D or quit to exit)"])])
    #expect(edit(Keys.control("c") + Keys.control("c")).1.last == .quit)
    #expect(edit(Keys.control("c") + "x" + Keys.control("c")).1.last == .redraw)  // not twice in a row
  }

  @Test("Up and Down walk the session's history and come back to the line being typed; a password line is never kept")
  func history() {
    let typed = "city Seoul\r" + "password hunter2\r" + "help\r" + "par"
    #expect(edit(typed + Keys.up).0.line == "help")
    #expect(edit(typed + Keys.up + Keys.up).0.line == "city Seoul")
    #expect(edit(typed + Keys.up + Keys.up + Keys.up).0.line == "city Seoul")
    #expect(edit(typed + Keys.up + Keys.up + Keys.down + Keys.down).0.line == "par")
  }

  @Test("What follows `password ` is not shown, whatever separates it")
  func hiddenPassword() {
    #expect(edit("password hunter2").0.visibleCount == 9)
    #expect(edit("  PASSWORD\u{a0}hunter2").0.visibleCount == 11)
    #expect(edit("password").0.visibleCount == 8)
    #expect(edit("passwords hunter2").0.visibleCount == 10)  // a typo of it: hidden too
  }

  @Test("A mistyped secret command hides its secret and stays out of the history, wherever the word is")
  func nearMissesHidden() {
    #expect(edit("pasword hunter2").0.visibleCount == 8)
    #expect(edit("passwd hunter2").0.visibleCount == 7)
    #expect(edit("pasword\u{a0}hunter2").0.visibleCount == 8)
    #expect(edit("help password hunter2").0.visibleCount == 14)
    #expect(edit("pass hunter2").0.visibleCount == 12)  // too far from it: a plain unknown command
    #expect(edit("city Seoul").0.visibleCount == 10)
    let typed = "city Seoul\r" + "pasword hunter2\r" + "passwd hunter3\r"
    #expect(edit(typed + Keys.up).0.line == "city Seoul")
  }

  @Test("Tab completes a command, an open argument, or their common prefix; a second Tab lists the choices")
  func completion() {
    let candidates: @Sendable ([String]) -> [String] = { before in
      before.isEmpty ? ["password", "login", "logout", "help"] : before == ["open"] ? ["weather", "findnumber"] : []
    }
    #expect(edit("pass\t", candidates: candidates).0.line == "password ")
    #expect(edit("open we\t", candidates: candidates).0.line == "open weather ")
    #expect(edit("lo\t", candidates: candidates).0.line == "log")
    #expect(edit("log\t\t", candidates: candidates).1.last == .show(["login  logout"]))
  }

  @Test("Keys split across reads decode once whole; UTF-8 text and unknown sequences pass")
  func decoder() {
    var decoder = KeyDecoder()
    #expect(decoder.keys([0x1b]) == [])
    #expect(decoder.keys([UInt8(ascii: "["), UInt8(ascii: "D")]) == [.left])
    #expect(decoder.keys(Array("서".utf8).prefix(2)) == [])
    #expect(decoder.keys(Array("서".utf8).suffix(1)) == [.character("서")])
    #expect(decoder.keys(Array("\u{1b}[1;5C".utf8)) == [.right])
    #expect(decoder.keys(Array("\u{1b}[200~x".utf8)) == [.character("x")])
  }
}

@Suite("REPL: in a terminal (a pseudo-terminal)")
struct TerminalEditingTests {
  @Test("Arrow keys edit the line instead of arriving as text: Seol, Left, u searches Seoul", .timeLimit(.minutes(2)))
  func arrowKeysEdit() throws {
    let repl = try PseudoTerminalRepl()
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("open weather\r")
    repl.waitFor("the default city") { $0.output.contains("weather.locationName = \"McGaheysville, VA\"") }
    repl.type("city Seol" + Keys.left + "u\r")
    repl.waitFor("Seoul's weather") { $0.output.contains(#"weather.locationName = "Seoul, South Korea""#) }
    #expect(repl.shows("weather> city Seoul"))
    #expect(!repl.output.contains("Not found"))
    repl.type(Keys.up)
    repl.waitFor("the last line recalled") { $0.screen.current == "weather> city Seoul" }
    repl.type(Keys.control("c") + "quit\r")
    #expect(repl.exitStatus() == 0)
  }

  @Test("What is typed after `password ` appears nowhere on the terminal", .timeLimit(.minutes(2)))
  func passwordHidden() throws {
    let repl = try PseudoTerminalRepl()
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("id alice\r")
    repl.waitFor("the id") { $0.output.contains(#"login.id = "alice""#) }
    repl.waitFor("the prompt again") { $0.screen.current == "login> " }  // the command is done
    repl.type("pass" + Keys.tab + "hunter2")
    repl.waitFor("the command completed") { $0.screen.current == "login> password " }
    repl.type("\r")
    repl.waitFor("the password set") { $0.output.contains("login.password = ") }
    repl.type("password\u{a0}s3cr3t\r")  // a no-break space separates it too
    repl.type("login\r")
    repl.waitFor("home") { $0.screen.current.hasPrefix("home> ") || $0.output.contains("login.error") }
    repl.type("quit\r")
    #expect(repl.exitStatus() == 0)
    #expect(!repl.output.contains("hunter2"))
    #expect(!repl.output.contains("s3cr3t"))
  }

  @Test(
    "SIGTERM, SIGHUP and SIGQUIT put the terminal back before the REPL dies of them",
    .timeLimit(.minutes(2)), arguments: [SIGTERM, SIGHUP, SIGQUIT])
  func terminalRestoredOnSignal(signalNumber: Int32) throws {
    let repl = try PseudoTerminalRepl()
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    var raw = termios()
    _ = tcgetattr(repl.master, &raw)
    #expect(raw.c_lflag & tcflag_t(ECHO | ICANON) == 0, "raw while the REPL runs")
    kill(repl.process.processIdentifier, signalNumber)
    _ = repl.exitStatus()
    #expect(repl.process.terminationReason == .uncaughtSignal)
    #expect(repl.process.terminationStatus == signalNumber)
    var restored = termios()
    _ = tcgetattr(repl.master, &restored)
    #expect(restored.c_lflag & tcflag_t(ECHO) != 0)
    #expect(restored.c_lflag & tcflag_t(ICANON) != 0)
    #expect(restored.c_lflag & tcflag_t(ISIG) != 0)
  }

  @Test("help is wrapped at word boundaries to the window's width", .timeLimit(.minutes(2)))
  func helpWrapsToTheWindow() throws {
    let repl = try PseudoTerminalRepl(["--latency", "0"], columns: 60)
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("help\r")
    repl.waitFor("the end of help") { $0.output.contains("to type the next one while it runs") }
    repl.type("quit\r")
    #expect(repl.exitStatus() == 0)
    let shown = repl.screen.text
    let first = try #require(shown.firstIndex { $0.hasPrefix("login commands:") })
    let last = try #require(shown.firstIndex { $0.hasSuffix("to type the next one while it runs") })
    let help = shown[first...last]
    #expect(help.count > 4)
    // Within the width, but for a word wider than it (a deep link's URL), whole on its own line.
    #expect(help.allSatisfy { TerminalConsole.width(of: $0) <= 60 || $0.split(separator: " ").count == 1 })
    // Joined again, the lines are the unwrapped help, word for word.
    let words = help.flatMap { $0.split(separator: " ") }
    #expect(words.contains("maintenance") && words.contains("deeplink"))
    #expect(help.dropFirst().contains { $0.hasPrefix("  ") })
  }

  @Test("The prompt follows a navigation that lands after the command returned", .timeLimit(.minutes(2)))
  func promptFollowsLateNavigation() throws {
    let repl = try PseudoTerminalRepl(["--latency", "100"])
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("id alice\rpassword secret\rlogin\r")
    repl.waitFor("home") { $0.screen.current == "home> " }
    repl.type("open mypage\r")
    repl.waitFor("my page") { $0.screen.current == "mypage> " }
    repl.type("logout\r")
    repl.waitFor("login after the intro's check") { $0.output.contains("→ present login") }
    repl.waitFor("the login prompt again") { $0.screen.current == "login> " }
    repl.type("quit\r")
    #expect(repl.exitStatus() == 0)
  }

  @Test("Every pasted line is echoed where it was submitted, not only the first", .timeLimit(.minutes(2)))
  func pastedLinesEchoed() throws {
    let repl = try PseudoTerminalRepl(["--latency", "100"])
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("id alice\rid bob\rid carol\rstate\r")
    repl.waitFor("the last id") { $0.output.contains(#"login.id = "carol""#) }
    repl.waitFor("the prompt") { $0.screen.current == "login> " }
    for line in ["login> id alice", "login> id bob", "login> id carol", "login> state"] {
      #expect(repl.shows(line), "\(line) in \(repl.screen.text)")
    }
    repl.type("quit\r")
    #expect(repl.exitStatus() == 0)
  }

  @Test("A mistyped secret command's secret appears nowhere on the terminal", .timeLimit(.minutes(2)))
  func mistypedSecretHidden() throws {
    let repl = try PseudoTerminalRepl()
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("pasword hunter2\r")
    repl.waitFor("the suggestion") { $0.output.contains(#"did you mean "password""#) }
    repl.type("passwd hunter3\r")
    repl.waitFor("the second suggestion") { $0.output.components(separatedBy: "did you mean").count == 3 }
    repl.type(Keys.up)  // nothing to recall: neither line was kept
    repl.type("x")
    repl.waitFor("the prompt") { $0.screen.current == "login> x" }
    repl.type(Keys.control("c") + "quit\r")
    #expect(repl.exitStatus() == 0)
    #expect(!repl.output.contains("hunter2"))
    #expect(!repl.output.contains("hunter3"))
  }

  @Test(
    "Output that lands while typing is printed above the prompt, which is redrawn with the typed text",
    .timeLimit(.minutes(2)))
  func outputAboveThePrompt() throws {
    let repl = try PseudoTerminalRepl(["--latency", "200"])
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("open weather\r")
    repl.type("sta")  // typed while the default city is looked up
    repl.waitFor("the default city") { $0.output.contains("weather.locationName = \"McGaheysville, VA\"") }
    repl.waitFor("the prompt with what was typed") { $0.screen.current == "weather> sta" }
    let shown = repl.screen.text
    #expect(shown.contains { $0.hasSuffix(#"weather.locationName = "McGaheysville, VA""#) })
    #expect(!shown.contains { $0.contains("sta") && $0.contains("locationName") })
    repl.type("te\r")
    repl.waitFor("the state") { $0.shows("weather> state") && $0.output.contains("weather.temp = ") }
    repl.type(Keys.control("d"))
    #expect(repl.exitStatus() == 0)
  }

  @Test("Ctrl-C clears a half-typed line; twice on an empty line exits cleanly", .timeLimit(.minutes(2)))
  func controlC() throws {
    let repl = try PseudoTerminalRepl()
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    repl.type("garbage" + Keys.control("c"))
    repl.waitFor("a cleared line") { $0.screen.current == "login> " }
    repl.type("help\r")
    repl.waitFor("help") { $0.output.contains("login commands:") }
    #expect(!repl.output.contains("unknown command"))
    repl.type(Keys.control("c"))
    repl.waitFor("the hint") { $0.output.contains("(Ctrl-C again, Ctrl-D or quit to exit)") }
    repl.type(Keys.control("c"))
    #expect(repl.exitStatus() == 0)
  }

  @Test("A line longer than the terminal's 4,095-character canonical limit arrives whole", .timeLimit(.minutes(2)))
  func longLine() throws {
    let repl = try PseudoTerminalRepl()
    repl.waitFor("the login prompt") { $0.screen.current.hasPrefix("login> ") }
    let id = String(repeating: "a", count: 6_000)
    repl.type("id \(id)\r")
    repl.waitFor("the id field") { $0.output.contains("login.id = \"aaaa") }
    repl.type("state\r")
    repl.waitFor("state") { $0.output.contains("login.error = ") }
    repl.type("quit\r")
    #expect(repl.exitStatus() == 0)
    #expect(repl.output.contains("\(id.prefix(100))"))
  }
}
