import ActorMVVM
import ActorMVVMTesting
import Foundation
import Testing

@testable import ReplCore

@Suite("REPL: input, one tokenizer for every command", .testBubble)
struct InputTests {
  @Test(
    "Any whitespace separates words: a tab or a no-break space after password sets the password; it is never printed")
  func anyWhitespace() async {
    for separator in ["\t", "\u{a0}", "\u{3000}", "  "] {
      for json in [false, true] {
        let lines = await transcript(of: ["password\(separator)hunter2", "state"], json: json, trace: true)
        #expect(!lines.contains { $0.contains("hunter2") }, "separator \(separator.unicodeScalars.first!.value)")
        #expect(!lines.contains { $0.contains("unknown command") })
        #expect(lines.contains { $0.contains("password") && $0.contains("•••") })
      }
    }
  }

  @Test("A 100 KB field value prints as one line cut like an error line")
  func longFieldCut() async {
    let lines = await transcript(of: ["id " + String(repeating: "a", count: 100_000)])
    let line = try! #require(lines.first { $0.hasPrefix("login.id = ") })
    #expect(line.count < 330)
    #expect(line.hasSuffix("…"))
  }

  @Test("\"Did you mean\" only for a word a typo could make; a long unknown word gets the plain error")
  func suggestionBounded() async {
    let lines = await transcript(of: ["hep", "h" + String(repeating: "e", count: 200_000) + "lp"])
    #expect(lines.contains { $0.hasPrefix("error: unknown command \"hep\"") && $0.contains("did you mean") })
    let long = try! #require(lines.last { $0.hasPrefix("error: unknown command") })
    #expect(!long.contains("did you mean"))
    #expect(GlobalCommands.suggestion(for: String(repeating: "x", count: 33), among: ["help"]) == nil)
  }

  @Test("Suggestions count a swap of two letters as one edit, and know screens: `open wether`, a bare `findnumber`")
  func suggestionsKnowSwapsAndScreens() async {
    #expect(GlobalCommands.distance("hlep", "help") == 1)
    #expect(GlobalCommands.distance("opne", "open") == 1)
    #expect(GlobalCommands.distance("qiut", "quit") == 1)
    #expect(GlobalCommands.distance("lgoin", "login") == 1)
    #expect(GlobalCommands.distance("reste", "reset") == 1)
    #expect(GlobalCommands.distance("kitten", "sitting") == 3)
    #expect(GlobalCommands.distance("", "abc") == 3)
    let lines = await transcript(of: ["hlep", "qiut", "open wether", "findnumber", "wether"])
    #expect(lines.contains { $0.hasPrefix(#"error: unknown command "hlep"; did you mean "help"?"#) })
    #expect(lines.contains { $0.hasPrefix(#"error: unknown command "qiut"; did you mean "quit"?"#) })
    #expect(lines.contains { $0.hasPrefix(#"error: no screen "wether"; did you mean "open weather"?"#) })
    #expect(lines.contains { $0.hasPrefix(#"error: unknown command "findnumber"; did you mean "open findnumber"?"#) })
    #expect(lines.contains { $0.hasPrefix(#"error: unknown command "wether"; did you mean "open weather"?"#) })
  }

  @Test("The weather screen finds a city by its Korean name, and one typed without its accents")
  func koreanAndUnaccentedCities() async {
    let lines = await transcript(of: ["open weather", "city 서울", "city Sao Paulo"])
    #expect(lines.contains { $0.hasSuffix(#"weather.locationName = "Seoul, South Korea""#) }, "\(lines)")
    #expect(lines.contains { $0.hasSuffix(#"weather.locationName = "São Paulo, Brazil""#) }, "\(lines)")
    #expect(!lines.contains { $0.contains("Not found") })
  }

  @Test("maintenance on shows the article's service notice at the intro's next check; off and retry go on to login")
  func maintenanceNotice() async {
    let lines = await transcript(of: [
      "id alice", "password secret", "login", "maintenance on Back at 3pm", "open mypage", "logout",
      "maintenance off", "retry", "maintenance", "maintenance off now",
    ])
    let notice = try! #require(lines.firstIndex { $0.hasSuffix(#"intro.notice = "Back at 3pm""#) }, "\(lines)")
    let login = try! #require(lines.lastIndex { $0.hasSuffix("→ present login") })
    #expect(notice < login)
    #expect(lines.contains { $0.hasSuffix("intro ! showLogin") })
    #expect(lines.filter { $0 == "error: usage: maintenance <on [notice]|off>" }.count == 2)
  }

  @Test("A new password is shown as changed (masked), the same one again is no change")
  func changedSecretShown() async {
    let lines = await transcript(of: ["password first", "password second", "password second", "password"])
    let shown = lines.filter { $0.hasPrefix("login.password = ") || $0 == "· no change" }
    #expect(shown == [#"login.password = "•••""#, #"login.password = "•••""#, "· no change", #"login.password = """#])
    #expect(!lines.contains { $0.contains("first") || $0.contains("second") })
  }

  @Test("A `· no change` that has a reason says it: an ignored deep link, a detail with no route")
  func noChangeReasons() async {
    let lines = await transcript(of: [
      "id alice", "password secret", "login", "deeplink actormvvm://expiration?days=2", "deeplink actormvvm://nothing",
      "open directions", "detail", "state",
    ])
    #expect(lines.contains("· no change: the app ignores this link: expiration opens My Page for days=1, 3 or 7"))
    #expect(
      lines.contains(
        "· no change: the app ignores actormvvm://nothing: it opens analysis-complete and expiration links only"))
    #expect(lines.contains("· no change: no route yet: `location`, `tap` a start and a goal, then `route`"))
    // FindNumber with seed 0: the first target is 3 (the tour's), so 1 is wrong at round 1.
    let game = await transcript(of: ["open findnumber", "state --all", "check 1"])
    #expect(game.contains("findnumber.target = 3"), "\(game)")
    #expect(game.last == "· no change: a wrong guess at round 1 stays at round 1, with no streak to lose", "\(game)")
    let json = await transcript(of: ["open directions", "detail"], json: true)
    #expect(json.contains { $0.contains(#""type":"unchanged","command":"detail","reason":"no route yet"#) })
  }

  @Test("A byte-order mark at a script's start (or anywhere) is no part of a word")
  func byteOrderMarkIgnored() async {
    let lines = await transcript(of: ["\u{FEFF}open weather", "state"])
    #expect(!lines.contains { $0.hasPrefix("error:") }, "\(lines)")
    #expect(lines.contains { $0.hasPrefix("weather.") })
  }

  @Test("Each global command is declared once: a name complete alone runs with no words, any other asks for them")
  func globalCommandsDeclaredOnce() async {
    for command in GlobalCommand.allCases where command != .quit {
      let lines = await transcript(of: [command.spec.name])
      let usage = lines.contains { $0 == "error: usage: \(command.spec.usage)" }
      #expect(usage == !command.completeAlone, "\(command.spec.name): \(lines)")
      #expect(!lines.contains { $0.contains("unknown command") })
    }
    let alone = Set(GlobalCommand.allCases.filter(\.completeAlone).flatMap(\.spec.names))
    #expect(alone.isSubset(of: BadLines<SystemRandomNumberGenerator>.valid))
    #expect(GlobalCommand.named("exit") == .quit)
  }

  @Test("A rejected command typed twice prints its error twice, and no acknowledgement")
  func repeatedRejection() async {
    let lines = await transcript(of: ["check 9", "check 9"])
    #expect(lines.filter { $0.hasPrefix("error: ") }.count == 2)
    #expect(!lines.contains("· no change"))
  }

  @Test("Durations in traces read as a person reads them")
  func durations() {
    #expect(Secrets.describe(Duration.milliseconds(10_390)) == "10.4 s")
    #expect(Secrets.describe(Duration.milliseconds(300)) == "300 ms")
    #expect(Secrets.describe(Duration.microseconds(12)) == "12 µs")
    #expect(Secrets.describe([Duration.seconds(2)]) == "[2.0 s]")
  }

  @Test("help lists every deep-link form with an example")
  func helpListsDeepLinks() async {
    let lines = await transcript(of: ["help"])
    let deepLinks = try! #require(lines.first { $0.hasPrefix("deep links: ") })
    #expect(deepLinks.contains("actormvvm://analysis-complete?memIdx="))
    #expect(deepLinks.contains("actormvvm://expiration?days=1|3|7"))
  }

  @Test("help at the login prompt names the demo members who can log in (issue #48)")
  func helpNamesDemoMembers() async {
    let lines = await transcript(of: ["help"])
    #expect(
      lines.contains("login commands: id [<text>] (no text clears it); password [<text>] (no text clears it); login"))
    #expect(lines.contains("demo members: alice (password secret), bob (password hunter2)"))
  }
}

@Suite("Words.wrap")
struct WrapTests {
  @Test(
    "Breaks at spaces within the width, indents what follows, keeps a too-long word whole, counts wide characters twice"
  )
  func wrap() {
    #expect(Words.wrap("a bb ccc dddd", width: 6) == ["a bb", "  ccc", "  dddd"])
    #expect(Words.wrap("short", width: 40) == ["short"])
    #expect(
      Words.wrap("x actormvvm://analysis-complete?memIdx=1 y", width: 10) == [
        "x", "  actormvvm://analysis-complete?memIdx=1", "  y",
      ])
    #expect(Words.wrap("서울 서울 서울", width: 10) == ["서울 서울", "  서울"])
  }
}
