import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMNetworking
import ActorMVVMSupport
import ActorMVVMTesting
import Dispatch
import EmbeddedBackend
import InterviewApp
import ReplCore
import Testing

/// The embedded backend answering as the real network does: from outside
/// the job count (a Dispatch timer), or — for a request `holds` names — not
/// at all until the request is cancelled.
struct OutsideNetwork: HTTPClient {
  let backend = EmbeddedBackend(.init(latency: .zero))
  var holds: @Sendable (HTTPRequest) -> Bool = { _ in false }

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    if holds(request) {
      let waiter = Locked<CheckedContinuation<Void, Never>?>(nil)
      await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          waiter.withLock { $0 = continuation }
          if Task.isCancelled { waiter.withLock { $0.take() }?.resume() }
        }
      } onCancel: {
        waiter.withLock { $0.take() }?.resume()
      }
      throw .cancelled
    }
    await withCheckedContinuation { continuation in
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { continuation.resume() }
    }
    return try await backend.send(request)
  }
}

@Suite("REPL: a --live script waits for the network", .testBubble)
struct LiveScriptTests {
  func run(_ lines: [String], network: OutsideNetwork, outsideWork: Duration?) async -> [String] {
    let clock = VirtualClock()
    let app = AppCoordinator(
      InterviewApp(
        AppConfiguration(
          httpClient: network, clock: clock, weatherbitKey: EmbeddedBackend.demoWeatherbitKey,
          naverCredentials: nil)))
    let output = OutputLines()
    let session = ReplSession(coordinator: app, clock: clock, outsideWork: outsideWork) { output.append($0) }
    await session.start()
    for line in lines { _ = await session.handle(line) }
    await session.finish()
    return output.lines
  }

  @Test("Answers from outside the job count are awaited before the next line, so the script sees them")
  func waitsForTheNetwork() async {
    let lines = await run(["open weather", "state"], network: OutsideNetwork(), outsideWork: .seconds(60))
    #expect(lines.contains { $0.hasSuffix(#"weather.locationName = "McGaheysville, VA""#) }, "\(lines)")
    #expect(lines.last { $0.contains("weather.isLoading = ") }?.hasSuffix("weather.isLoading = false") == true)
  }

  @Test("A request that never answers: the script gives up after the bound and says so")
  func givesUpAndSaysSo() async {
    let network = OutsideNetwork(holds: { $0.url.host?.contains("open-meteo") == true })
    let lines = await run(["open weather"], network: network, outsideWork: .milliseconds(50))
    #expect(lines.contains { $0.hasPrefix("· gave up waiting for weather's requests after 0.05 seconds") }, "\(lines)")
  }
}
