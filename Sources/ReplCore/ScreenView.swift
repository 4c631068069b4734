import ActorMVVM
import AppCoordinator
import DirectionsFeature
import FindNumberFeature
import InterviewFeature
import LoginFeature
import Storage
import WeatherFeature

/// A command a screen takes: its name, its usage line, and for a global
/// command its aliases and whether it takes words after its name.
struct CommandSpec: Sendable {
  let name: String
  let usage: String
  var aliases: [String] = []
  var takesNoArguments = false

  /// The name and its aliases.
  var names: [String] { [name] + aliases }
}

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

/// The headless view of each screen: the fields it shows and the commands
/// it takes. It renders state and sends inputs; no business logic lives here.
enum ScreenView {
  /// Commands every screen takes. Like screen commands, a command that
  /// takes no words rejects extra ones with its usage line.
  static let global = [
    CommandSpec(name: "help", usage: "help", takesNoArguments: true),
    CommandSpec(name: "state", usage: "state [--all]"),
    CommandSpec(name: "wait", usage: "wait <milliseconds>"),
    CommandSpec(name: "back", usage: "back", takesNoArguments: true),
    CommandSpec(name: "open", usage: "open <weather|login|findnumber|directions|report <termNo>|messages|mypage|home>"),
    CommandSpec(name: "deeplink", usage: "deeplink <actormvvm://…>"),
    CommandSpec(name: "quit", usage: "quit (or exit)", aliases: ["exit"], takesNoArguments: true),
  ]

  static func commands(for route: Route) -> [CommandSpec] {
    switch route {
    case .intro: [CommandSpec(name: "retry", usage: "retry"), CommandSpec(name: "login", usage: "login")]
    case .home: [CommandSpec(name: "refresh", usage: "refresh")]
    case .weather: [CommandSpec(name: "city", usage: "city <name>, e.g. city Richmond, VA")]
    case .login:
      [
        CommandSpec(name: "id", usage: "id [<text>] (no text clears it)"),
        CommandSpec(name: "password", usage: "password [<text>] (no text clears it)"),
        CommandSpec(name: "login", usage: "login"),
      ]
    case .findNumber:
      [
        CommandSpec(name: "start", usage: "start"), CommandSpec(name: "check", usage: "check <1|2|3>"),
        CommandSpec(name: "reset", usage: "reset"),
      ]
    case .directions:
      [
        CommandSpec(name: "location", usage: "location <lat> <lng>"),
        CommandSpec(name: "tap", usage: "tap <lat> <lng>"),
        CommandSpec(name: "reset", usage: "reset"), CommandSpec(name: "route", usage: "route"),
        CommandSpec(name: "detail", usage: "detail"), CommandSpec(name: "close", usage: "close"),
      ]
    case .report: [CommandSpec(name: "load", usage: "load"), CommandSpec(name: "total", usage: "total")]
    case .messages:
      [CommandSpec(name: "room", usage: "room <roomId>"), CommandSpec(name: "declare", usage: "declare <messageId>")]
    case .declare: [CommandSpec(name: "reason", usage: "reason <text>"), CommandSpec(name: "submit", usage: "submit")]
    case .myPage: [CommandSpec(name: "logout", usage: "logout")]
    }
  }

  /// Sends the input a screen command stands for.
  static func perform(_ command: String, _ rest: String, on screen: Screen, route: Route) throws(ReplError) {
    let words = rest.split(separator: " ").map(String.init)
    func usage() -> ReplError {
      .usage(commands(for: route).first { $0.name == command }?.usage ?? command)
    }
    func none() throws(ReplError) { if !words.isEmpty { throw usage() } }
    func text() throws(ReplError) -> String {
      guard !rest.isEmpty else { throw usage() }
      return rest
    }
    func int() throws(ReplError) -> Int {
      guard words.count == 1, let value = Int(words[0]) else { throw usage() }
      return value
    }
    func coordinate() throws(ReplError) -> Coordinate {
      guard words.count == 2, let lat = Double(words[0]), let lng = Double(words[1]), (-90...90).contains(lat),
        (-180...180).contains(lng)
      else { throw usage() }
      return Coordinate(latitude: lat, longitude: lng)
    }
    switch (screen, command) {
    case (.intro(let feature), "retry"): try none(); feature.send(.appeared)
    case (.home(let feature), "refresh"): try none(); feature.send(.appeared)
    case (.weather(let feature), "city"): feature.send(.cityEntered(try text()))
    case (.login(let feature), "id"): feature.send(.idChanged(rest))
    case (.login(let feature), "password"): feature.send(.passwordChanged(rest))
    case (.login(let feature), "login"): try none(); feature.send(.loginTapped)
    case (.findNumber(let feature), "start"): try none(); feature.send(.gameStart)
    case (.findNumber(let feature), "check"):
      let guess = try int()
      guard (1...3).contains(guess) else { throw usage() }
      feature.send(.checkNumber(guess))
    case (.findNumber(let feature), "reset"): try none(); feature.send(.resetStage)
    case (.directions(let feature), "location"): feature.send(.locationUpdated(try coordinate()))
    case (.directions(let feature), "tap"): feature.send(.mapTapped(try coordinate()))
    case (.directions(let feature), "reset"): try none(); feature.send(.resetMarkersTapped)
    case (.directions(let feature), "route"): try none(); feature.send(.drawPathTapped)
    case (.directions(let feature), "detail"): try none(); feature.send(.detailTapped)
    case (.directions(let feature), "close"): try none(); feature.send(.detailClosed)
    case (.report(let feature), "load"): try none(); feature.send(.loadTriggered)
    case (.report(let feature), "total"): try none(); feature.send(.totalReportTriggered)
    case (.messages(let feature), "room"): feature.send(.roomSelected(try int()))
    case (.messages(let feature), "declare"): feature.send(.declareTapped(messageId: try int()))
    case (.declare(let feature), "reason"): feature.send(.reasonChanged(try text()))
    case (.declare(let feature), "submit"): try none(); feature.send(.submitTapped)
    case (.myPage(let feature), "logout"): try none(); feature.send(.logoutTapped)
    default: throw .invalid("\(command) is not a command of \(route.name)")
    }
  }

  /// Every field the screen shows, in display order.
  static func fields(of screen: Screen) async -> [(String, JSONValue)] {
    func error(_ value: (any Error)?) -> JSONValue { value.map { .string("\($0)") } ?? .null }
    func optional<T>(_ value: T?, _ map: (T) -> JSONValue) -> JSONValue { value.map(map) ?? .null }
    switch screen {
    case .intro(let feature):
      let state = await feature.state
      return [
        ("isChecking", .bool(state.isChecking)), ("notice", optional(state.notice, JSONValue.string)),
        ("error", error(state.error)),
      ]
    case .home(let feature):
      let state = await feature.state
      return [
        ("member", optional(state.member) { .string($0.name) }), ("unreadCount", number(state.unreadCount)),
        (
          "interviews",
          .array(state.interviews.map { .string("\($0.termNo) \($0.title)\($0.completed ? "" : " (in progress)")") })
        ),
        ("isLoading", .bool(state.isLoading)), ("error", optional(state.error) { .string($0.description) }),
      ]
    case .weather(let feature):
      let state = await feature.state
      return [
        ("locationName", .string(state.locationName)), ("date", .string(state.date)), ("temp", .string(state.temp)),
        ("description", .string(state.description)), ("summary", .string(state.summary)),
        ("forecastSummary", .string(state.forecastSummary)), ("iconName", .string(state.iconName)),
        ("isLoading", .bool(state.isLoading)), ("error", error(state.error)),
      ]
    case .login(let feature):
      let state = await feature.state
      return [
        ("id", .string(state.id)), ("password", .string(state.password.isEmpty ? "" : "•••")),
        ("isLoading", .bool(state.isLoading)), ("error", optional(state.errorMessage, JSONValue.string)),
      ]
    case .findNumber(let feature):
      let state = await feature.state
      return [
        ("round", number(state.round)), ("bestRecord", number(state.bestRecord)),
        ("currentRecord", number(state.currentRecord)), ("stage", .string(state.stageText)),
        ("best", .string(state.bestRecordText)), ("current", .string(state.currentRecordText)),
        ("isLoading", .bool(state.isLoading)),
      ]
    case .directions(let feature):
      let state = await feature.state
      func point(_ c: Coordinate?) -> JSONValue { optional(c) { .string($0.description) } }
      return [
        ("location", point(state.currentLocation)), ("start", point(state.start)), ("goal", point(state.goal)),
        ("pathPoints", number(state.path.count)),
        (
          "summary",
          optional(state.summary) {
            .string(
              "\($0.distanceMetres) m, \($0.duration.components.seconds / 60) min, toll \($0.tollFare) KRW, taxi \($0.taxiFare) KRW, fuel \($0.fuelPrice) KRW"
            )
          }
        ),
        (
          "guide",
          .array(state.isDetailShown ? state.guide.map { .string("\($0.instructions) (\($0.distanceMetres) m)") } : [])
        ),
        ("detailShown", .bool(state.isDetailShown)), ("isLoading", .bool(state.isLoading)),
        ("error", error(state.error)),
      ]
    case .report(let feature):
      let state = await feature.state
      return [
        ("termNo", number(state.termNo)),
        ("title", optional(state.interview) { .string("\($0.title) — \($0.companyName)") }),
        ("sections", .array(state.sections.map { .string(describe($0)) })), ("isLoading", .bool(state.isLoading)),
        ("error", optional(state.error) { .string($0.description) }),
      ]
    case .messages(let feature):
      let state = await feature.state
      return [
        ("rooms", .array(state.rooms.map { .string("\($0.roomId) \($0.title)") })),
        ("room", optional(state.room) { .string("\($0.roomId) \($0.title)") }),
        ("messages", .array(state.messages.map { .string("\($0.messageId) \($0.sender): \($0.text)") })),
        ("isLoading", .bool(state.isLoading)), ("error", optional(state.error) { .string($0.description) }),
      ]
    case .declare(let feature):
      let state = await feature.state
      return [
        ("message", .string("\(state.message.messageId) \(state.message.text)")), ("reason", .string(state.reason)),
        ("isSubmitting", .bool(state.isSubmitting)), ("error", error(state.error)),
      ]
    case .myPage(let feature):
      let state = await feature.state
      return [
        ("member", optional(state.page) { .string($0.member.name) }),
        ("membershipDaysLeft", optional(state.page) { number($0.membershipDaysLeft) }),
        ("isLoading", .bool(state.isLoading)), ("error", error(state.error)),
      ]
    }
  }

  /// Fields a screen keeps off the view, shown only by `state --all`:
  /// FindNumber's answer (the article keeps it out of the view, for tests).
  static func hiddenFields(of screen: Screen) async -> [(String, JSONValue)] {
    guard case .findNumber(let feature) = screen else { return [] }
    return [("target", number(await feature.state.target))]
  }

  static func number(_ value: Int) -> JSONValue { .number(Double(value)) }

  static func describe(_ section: ReportMachine.Section) -> String {
    switch section {
    case .title(let interview): "title: \(interview.title)"
    case .tips(let good, let improve): "tips: +\(good.joined(separator: " / ")) ; -\(improve.joined(separator: " / "))"
    case .character(let type, _): "character: \(type)"
    case .aptitude(let scores): "aptitude: " + scores.map { "\($0.name) \($0.score)" }.joined(separator: ", ")
    case .keywords(let keywords): "keywords: " + keywords.joined(separator: ", ")
    }
  }

  /// The closest known command, if any is close enough to be a typo.
  static func suggestion(for word: String, among names: [String]) -> String? {
    let scored = names.map { ($0, distance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
    guard let (name, score) = scored, score <= max(1, word.count / 3) else { return nil }
    return name
  }

  /// Levenshtein distance.
  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
