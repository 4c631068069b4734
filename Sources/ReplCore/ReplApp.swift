import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMJobCount
import ActorMVVMNetworking
import ActorMVVMStorage
import DirectionsFeature
import EmbeddedBackend
import FindNumberFeature
import Foundation
import InterviewApp
import InterviewFeature

/// Builds the app the REPL drives: the embedded backend by default, the
/// real network with `--live` (the interview API, being ours, stays
/// embedded). Missing keys are reported, one line each, and only the
/// screens that need them fail.
public enum ReplApp {
  /// Runs `body` (the whole session) in a bubble of its own — the test
  /// bubble's job count, on public API, the same on every platform — unless
  /// the task is in one already (a test's): the tasks the app starts are
  /// counted there, and what they queue on the main actor is waited for, so
  /// a script's virtual time and a terminal's acknowledgements know when
  /// nothing can run.
  ///
  /// Isolation: `body` runs on the caller's actor. Nothing is buffered.
  public static func withJobCountScope<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> R
  ) async -> R {
    await Quiescence.withScope(isolation: isolation, body)
  }

  /// The store behind `--data-dir DIR` (`DIR/store.json`), or one in memory.
  /// A file whose session or records are of the wrong type is set aside
  /// like a corrupt one; every failed write is reported to `warn` (the app
  /// goes on with what it has in memory).
  public static func makeStore(options: ReplOptions, warn: @escaping @Sendable (String) -> Void = { _ in })
    -> any KeyValueStore
  {
    guard let directory = options.dataDirectory else { return InMemoryKeyValueStore() }
    let file = FileKeyValueStore(url: URL(fileURLWithPath: directory).appendingPathComponent("store.json")) {
      $0.shapeProblem(SessionManager.storedShape + StoredRecordRepository.storedShape)
    }
    return ReportingKeyValueStore(file) { warn($0.description) }
  }

  /// The embedded server's own state behind `--data-dir DIR`
  /// (`DIR/server.json`: the refresh tokens it issued, as a server's
  /// database would keep them), or `nil` to keep it in memory. Checked and
  /// reported as ``makeStore(options:warn:)``.
  public static func makeServerStore(options: ReplOptions, warn: @escaping @Sendable (String) -> Void = { _ in })
    -> (any KeyValueStore)?
  {
    options.dataDirectory.map { directory in
      let file = FileKeyValueStore(
        url: URL(fileURLWithPath: directory).appendingPathComponent("server.json"),
        shape: EmbeddedBackend.stateShapeProblem)
      return ReportingKeyValueStore(file) { warn($0.description) }
    }
  }

  /// Loads `store` and reports what loading it met (a corrupt file set
  /// aside, an unreadable one), one `warn` line each, before the app starts.
  public static func reportStorageWarnings(of store: any KeyValueStore, warn: (String) -> Void) async {
    for warning in await store.takeWarnings() { warn(warning.description) }
  }

  /// The app over `store` (by default ``makeStore(options:)``), the
  /// embedded backend over `serverStore` (by default
  /// ``makeServerStore(options:)``), its
  /// effects and the embedded backend's latency on `clock` (a
  /// ``VirtualClock`` for a script; real time by default), every feature
  /// traced into `trace` if given.
  public static func makeCoordinator(
    options: ReplOptions, environment: [String: String], store: (any KeyValueStore)? = nil,
    serverStore: (any KeyValueStore)? = nil, clock: any Clock<Duration> = ContinuousClock(), trace: TraceLines? = nil,
    warn: (String) -> Void
  ) -> AppCoordinator<InterviewApp> {
    let embedded = EmbeddedBackend(
      .init(
        seed: options.seed, latency: .milliseconds(options.latencyMilliseconds), clock: clock,
        stateStore: serverStore ?? makeServerStore(options: options)))
    let client: any HTTPClient
    var weatherbitKey: String? = EmbeddedBackend.demoWeatherbitKey
    var naver: NaverDirectionsClient.Credentials? = .init(
      clientID: EmbeddedBackend.demoNaverClientID, clientSecret: EmbeddedBackend.demoNaverClientSecret)
    if options.live {
      client = LiveRouter(live: URLSessionHTTPClient(), embedded: embedded)
      weatherbitKey = environment["WEATHERBIT_API_KEY"].flatMap { $0.isEmpty ? nil : $0 }
      if weatherbitKey == nil { warn("WEATHERBIT_API_KEY is not set: the weather screen cannot load") }
      let id = environment["NAVER_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
      let secret = environment["NAVER_CLIENT_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
      if id == nil { warn("NAVER_CLIENT_ID is not set: the directions screen cannot route") }
      if secret == nil { warn("NAVER_CLIENT_SECRET is not set: the directions screen cannot route") }
      naver = id.flatMap { id in secret.map { .init(clientID: id, clientSecret: $0) } }
    } else {
      client = embedded
    }
    let store = store ?? makeStore(options: options)
    return AppCoordinator(
      InterviewApp(
        AppConfiguration(
          httpClient: client, clock: clock, store: store, weatherbitKey: weatherbitKey, naverCredentials: naver,
          trace: trace.map { lines in { @Sendable line in lines.append(line) } })))
  }
}

/// `--live`: real hosts over URLSession, the interview API embedded.
struct LiveRouter: HTTPClient {
  let live: any HTTPClient
  let embedded: any HTTPClient

  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    request.url.host == "api.interview.example" ? try await embedded.send(request) : try await live.send(request)
  }
}
