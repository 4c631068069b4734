import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMNetworking
import ActorMVVMTesting
import EmbeddedBackend
import Foundation
import InterviewApp
import ReplCore
import Testing

/// The embedded backend, except that a request whose URL contains one of
/// `held`'s keys waits for that key's gate first: requests the test keeps
/// in flight.
struct HeldBackend: HTTPClient {
  let backend: EmbeddedBackend
  let held: [String: TestGate]

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    for (key, gate) in held where request.url.absoluteString.contains(key) { await gate.wait() }
    return try await backend.send(request)
  }
}

@Suite("REPL: terminal mode (real time)", .testBubble)
struct TerminalModeTests {
  /// A line without its `+Nms ` prefix: on real time the number is whatever the wall clock said.
  static func untimed(_ line: String) -> String {
    guard line.hasPrefix("+"), let space = line.firstIndex(of: " ") else { return line }
    return String(line[line.index(after: space)...])
  }

  @Test(
    "On real time a command renders its own instant at once and never waits for the app; what lands later is rendered once the app settles, credited to its command",
    .timeLimit(.minutes(1)))
  func terminalRendersAsChangesLand() async throws {
    let (defaultCity, seoul) = (TestGate(), TestGate())
    // Real time; the intro has checked the service and shown login.
    let (_, session, output) = await heldSession(["name=McGaheysville": defaultCity, "name=Seoul": seoul])
    #expect(await session.handle("open weather"))  // the default city's lookup is held

    defaultCity.open()
    await session.settled()  // once the app has settled, what landed is rendered
    #expect(output.lines.map(Self.untimed).contains(#"weather.locationName = "McGaheysville, VA""#))
    let beforeCity = output.lines.count

    // The geocoder's request for Seoul is held: the command returns anyway, showing its loading state.
    #expect(await session.handle("city Seoul"))
    let atOnce = output.lines.dropFirst(beforeCity)
    #expect(atOnce.allSatisfy { !$0.hasPrefix("+") })  // the command's own instant, however long it took
    #expect(atOnce.contains(#"weather.locationName = "Loading...""#))
    #expect(atOnce.contains("weather.isLoading = true"))
    #expect(!atOnce.contains { $0.contains("Seoul, South Korea") })

    // The prompt stays usable while the request is in flight: this returns with the request still held.
    let beforeHelp = output.lines.count
    #expect(await session.handle("help"))
    #expect(output.lines.dropFirst(beforeHelp).first?.hasPrefix("weather commands:") == true, "\(output.lines)")

    // The answer lands; once the app settles the session renders it, credited to `city` (typed before `help`).
    let beforeAnswer = output.lines.count
    seoul.open()
    await session.settled()
    let landed = output.lines.dropFirst(beforeAnswer).map(Self.untimed)
    #expect(landed.contains(#"[city Seoul] weather.locationName = "Seoul, South Korea""#))
    #expect(landed.contains("[city Seoul] weather.isLoading = false"))

    await session.finish()
  }
  @Test(
    "On real time `· no change` comes only once the command's work has settled, and a line that lands after a later command names its own",
    .timeLimit(.minutes(1)))
  func acknowledgementsAfterSettling() async throws {
    let seoul = TestGate()
    let (_, session, output) = await heldSession(["name=Seoul": seoul])
    for line in ["id alice", "password secret", "login"] { #expect(await session.handle(line)) }
    await session.settled()
    #expect(output.lines.contains { $0.hasSuffix("→ root home") }, "\(output.lines)")

    // A deep link's navigation lands after the command returns: no acknowledgement before or after it.
    var before = output.lines.count
    #expect(await session.handle("deeplink actormvvm://expiration?days=1"))
    await session.settled()
    let deepLink = Array(output.lines.dropFirst(before))
    #expect(deepLink.contains { $0.hasSuffix("→ present mypage") })
    #expect(!deepLink.contains { $0.contains("no change") })

    // A command that changes nothing is acknowledged once settled.
    #expect(await session.handle("back"))
    await session.settled()
    before = output.lines.count
    #expect(await session.handle("refresh"))
    await session.settled()
    #expect(output.lines.dropFirst(before).contains { $0.hasPrefix("home.") || $0 == "· no change" })

    // Seoul's answer lands after `help` was typed: its lines name `city` and are timed from it.
    #expect(await session.handle("open weather"))
    await session.settled()
    #expect(await session.handle("city Seoul"))
    #expect(await session.handle("help"))
    before = output.lines.count
    seoul.open()
    await session.settled()
    let landed = output.lines.dropFirst(before)
    #expect(
      landed.contains {
        $0.hasPrefix("+") && $0.hasSuffix(#"[city Seoul] weather.locationName = "Seoul, South Korea""#)
      })
    await session.finish()
  }
  /// A session on real time over the embedded backend with `held` requests kept in flight; the intro settled.
  func heldSession(_ held: [String: TestGate]) async -> (AppCoordinator<InterviewApp>, ReplSession, OutputLines) {
    let client = HeldBackend(backend: EmbeddedBackend(.init(latency: .zero)), held: held)
    let app = AppCoordinator(
      InterviewApp(
        AppConfiguration(httpClient: client, weatherbitKey: EmbeddedBackend.demoWeatherbitKey, naverCredentials: nil)))
    let output = OutputLines()
    let session = ReplSession(coordinator: app) { output.append($0) }  // real time
    await session.start()
    await app.settle()
    return (app, session, output)
  }

  @Test(
    "Exact credit: `city Seoul` typed while Chicago is in flight owns Seoul's answer; nothing of it is Chicago's, and Seoul is not told `· no change`",
    .timeLimit(.minutes(1)))
  func secondCityOwnsItsAnswer() async {
    let (chicago, seoul) = (TestGate(), TestGate())
    let (_, session, output) = await heldSession(["name=Chicago": chicago, "name=Seoul": seoul])
    #expect(await session.handle("open weather"))
    await session.settled()
    let before = output.lines.count
    #expect(await session.handle("city Chicago"))
    #expect(await session.handle("city Seoul"))  // supersedes Chicago's lookup
    seoul.open()
    chicago.open()
    await session.settled()
    let lines = Array(output.lines.dropFirst(before))
    // Seoul is the last command typed: its answer is timed from it and needs no name.
    #expect(lines.map(Self.untimed).contains(#"weather.locationName = "Seoul, South Korea""#), "\(lines)")
    #expect(!lines.contains { $0.contains("[city Chicago]") && $0.contains("Seoul") }, "\(lines)")
    #expect(!lines.contains { $0.contains("no change") }, "\(lines)")
    await session.finish()
  }

  @Test(
    "Exact credit: `open weather`, `city Seoul`, `state` typed before anything lands: each line names the command it belongs to in full",
    .timeLimit(.minutes(1)))
  func fastTypedLinesAreCreditedInFull() async {
    let (home, seoul) = (TestGate(), TestGate())
    let (_, session, output) = await heldSession(["name=McGaheysville": home, "name=Seoul": seoul])
    let before = output.lines.count
    #expect(await session.handle("open weather"))  // the default city's lookup is held
    #expect(await session.handle("city Seoul"))  // supersedes it, held too
    #expect(await session.handle("state"))
    seoul.open()
    home.open()
    await session.settled()
    let lines = Array(output.lines.dropFirst(before)).map(Self.untimed)
    #expect(lines.contains(#"[city Seoul] weather.locationName = "Seoul, South Korea""#), "\(lines)")
    #expect(lines.contains("[city Seoul] weather.isLoading = false"), "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("[open weather] weather.locationName = \"Seoul") }, "\(lines)")
    #expect(!lines.contains { $0.contains("no change") }, "\(lines)")
    await session.finish()
  }

  @Test(
    "Exact credit: pasted lines — a screen's first request is the `open` that showed it, whatever was typed after",
    .timeLimit(.minutes(1)))
  func pastedLines() async {
    let numbers = TestGate()
    let (_, session, output) = await heldSession(["random": numbers])
    let before = output.lines.count
    for line in ["open findnumber", "id alice", "help"] { #expect(await session.handle(line)) }
    numbers.open()
    await session.settled()
    let lines = Array(output.lines.dropFirst(before)).map(Self.untimed)
    #expect(lines.contains("[open findnumber] findnumber.isLoading = false"), "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("[id alice]") || $0.hasPrefix("[help]") }, "\(lines)")
    await session.finish()
  }

  @Test(
    "On real time, 300 commands typed faster than the app settles are each acknowledged once, in order",
    .timeLimit(.minutes(1)))
  func manyCommandsSettle() async {
    let app = AppCoordinator(
      InterviewApp(
        AppConfiguration(
          httpClient: EmbeddedBackend(.init(latency: .zero)), weatherbitKey: EmbeddedBackend.demoWeatherbitKey,
          naverCredentials: nil)))
    let output = OutputLines()
    let session = ReplSession(coordinator: app) { output.append($0) }
    await session.start()
    await app.settle()  // the intro has checked the service and shown login
    #expect(await session.handle("state"))
    let before = output.lines.count
    for _ in 0..<300 { #expect(await session.handle("id alice")) }
    await session.settled()
    let lines = output.lines.dropFirst(before)
    #expect(lines.filter { $0 == #"login.id = "alice""# }.count == 1)
    #expect(lines.filter { $0.hasPrefix("· no change") }.count == 299)
    await session.finish()
  }
}
