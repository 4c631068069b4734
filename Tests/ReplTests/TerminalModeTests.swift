import ActorMVVM
import ActorMVVMTesting
import AppCoordinator
import EmbeddedBackend
import Foundation
import Networking
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

@Suite("REPL: terminal mode (real time)")
struct TerminalModeTests {
  /// A line without its `+Nms ` prefix: on real time the number is whatever the wall clock said.
  static func untimed(_ line: String) -> String {
    guard line.hasPrefix("+"), let space = line.firstIndex(of: " ") else { return line }
    return String(line[line.index(after: space)...])
  }

  @Test(
    "On real time a command renders its own instant at once and never waits for the app; what lands later is rendered by the watcher, which then redraws the prompt",
    .timeLimit(.minutes(1)))
  func terminalRendersAsChangesLand() async throws {
    let (defaultCity, seoul) = (TestGate(), TestGate())
    let client = HeldBackend(
      backend: EmbeddedBackend(.init(latency: .zero)), held: ["name=McGaheysville": defaultCity, "name=Seoul": seoul])
    let app = AppCoordinator(
      container: AppContainer(
        AppConfiguration(httpClient: client, weatherbitKey: EmbeddedBackend.demoWeatherbitKey, naverCredentials: nil)))
    let output = OutputLines()
    let session = ReplSession(coordinator: app) { output.append($0) }  // no clock: real time
    await session.start()
    await app.settle()  // the intro has checked the service and shown login
    #expect(await session.handle("open weather"))  // the default city's lookup is held

    // The watcher, its ticks on a clock the test moves; each render that printed signals.
    let ticks = TestClock()
    let (rendered, signal) = AsyncStream<Void>.makeStream()
    let watcher = Task { await session.watch(every: .milliseconds(30), on: ticks) { signal.yield() } }
    var renders = rendered.makeAsyncIterator()
    defaultCity.open()
    await app.settle()
    await ticks.advance(by: .milliseconds(30), expectingSleepers: 1)
    _ = await renders.next()
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

    // The answer lands; nothing renders it until the watcher's next tick, which then redraws the prompt.
    let beforeAnswer = output.lines.count
    seoul.open()
    await app.settle()
    #expect(output.lines.count == beforeAnswer)
    await ticks.advance(by: .milliseconds(30), expectingSleepers: 1)
    _ = await renders.next()
    let landed = output.lines.dropFirst(beforeAnswer)
    #expect(landed.map(Self.untimed).contains(#"weather.locationName = "Seoul, South Korea""#))
    #expect(landed.map(Self.untimed).contains("weather.isLoading = false"))

    watcher.cancel()
    await watcher.value
    signal.finish()
    await session.finish()
  }
}
