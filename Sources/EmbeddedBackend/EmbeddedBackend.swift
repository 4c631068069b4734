import ActorMVVMNetworking
import ActorMVVMStorage
import Foundation

/// An ``HTTPClient`` that answers in-process, in the real APIs' wire formats.
///
/// It sits *below* the features' API clients (`Sendable` structs of
/// constants), so the REPL and the tests run the same request building,
/// status mapping and JSON decoding as live mode.
/// It serves, by host:
///
/// | host | API |
/// |---|---|
/// | `api.weatherbit.io` | Weatherbit current weather v2.0 (`units` I, M, S; 403 for a bad or missing key) |
/// | `geocoding-api.open-meteo.com` | Open-Meteo geocoding search (no match → no `results` key) |
/// | `www.randomnumberapi.com` | randomnumberapi v1.0 (`[n]`; bad parameters → 400) |
/// | `naveropenapi.apigw.ntruss.com`, `maps.apigw.ntruss.com` | Naver Directions 5 driving (codes 1–5; 401 without keys) |
/// | `api.interview.example` | the interview app's own API (see `InterviewAPI`) |
///
/// Any other host fails as a DNS failure would (``HTTPError/transport(_:)``).
///
/// - **Deterministic:** every generated value comes from a generator seeded
///   with ``Configuration/seed``.
/// - **Time:** simulated latency and injected delays sleep on the injected
///   clock (zero latency by default); a delay at or past the request's
///   timeout fails with ``HTTPError/timedOut`` after the timeout.
/// - **Faults:** ``inject(_:on:times:)`` queues faults per route;
///   ``setFaultRate(_:faults:)`` makes a seeded share of requests fail.
/// - **Concurrency:** an actor; requests may arrive from any task at once.
///   Latency sleeps do not hold the actor, so concurrent requests overlap.
///   Cancelling the caller during latency throws ``HTTPError/cancelled``.
public actor EmbeddedBackend: HTTPClient {
  /// How the backend behaves.
  public struct Configuration: Sendable {
    public var seed: UInt64
    /// Simulated latency per request, on ``clock``.
    public var latency: Duration
    public var clock: any Clock<Duration>
    /// The Weatherbit key it accepts.
    public var weatherbitKey: String
    /// The Naver client id and secret it accepts.
    public var naverClientID: String
    public var naverClientSecret: String
    /// How long an interview access token lives, on ``clock``.
    public var accessTokenLifetime: Duration
    /// Where the interview API keeps what a server keeps between runs (the
    /// refresh tokens it issued), so a client's stored session survives a
    /// restart of the backend; `nil` keeps it in memory for this instance.
    /// It holds tokens: give it a private file (``FileKeyValueStore`` is 0600).
    public var stateStore: (any KeyValueStore)?

    public init(
      seed: UInt64 = 0, latency: Duration = .zero, clock: any Clock<Duration> = ContinuousClock(),
      weatherbitKey: String = EmbeddedBackend.demoWeatherbitKey,
      naverClientID: String = EmbeddedBackend.demoNaverClientID,
      naverClientSecret: String = EmbeddedBackend.demoNaverClientSecret,
      accessTokenLifetime: Duration = .seconds(3_600), stateStore: (any KeyValueStore)? = nil
    ) {
      self.seed = seed
      self.latency = latency
      self.clock = clock
      self.weatherbitKey = weatherbitKey
      self.naverClientID = naverClientID
      self.naverClientSecret = naverClientSecret
      self.accessTokenLifetime = accessTokenLifetime
      self.stateStore = stateStore
    }
  }

  /// The keys the embedded backend accepts by default: not secrets, they
  /// open nothing but this in-process server.
  public static let demoWeatherbitKey = "embedded-weatherbit-key"
  public static let demoNaverClientID = "embedded-naver-id"
  public static let demoNaverClientSecret = "embedded-naver-secret"

  /// The interview service's demo members and their passwords, as a person
  /// at the login prompt needs them: demo data of this in-process server,
  /// not secrets.
  public static var demoMembers: [(id: String, password: String)] {
    InterviewAPI.accounts.map { ($0.member.id, $0.password) }
  }

  /// The APIs it serves, for fault injection and request counts.
  public enum Route: String, Sendable, CaseIterable {
    case weather, geocode, randomNumber, directions, interview
  }

  /// A way for one request to go wrong.
  public enum Fault: Sendable, Equatable {
    /// Answer with this status and body instead.
    case status(Int, body: String = "")
    /// A 200 whose body is cut off mid-JSON.
    case malformedBody
    /// A 200 with no body.
    case emptyBody
    /// Wait this long (on the clock) before answering normally.
    case delay(Duration)
    /// Fail as the network would.
    case transport(String)
  }

  let configuration: Configuration
  var random: SeededRandom
  private var queuedFaults: [Route: [Fault]] = [:]
  private var faultRate = 0.0
  private var rateFaults: [Fault] = []
  private var counts: [Route: Int] = [:]
  let interview: InterviewAPI

  public init(_ configuration: Configuration = Configuration()) {
    self.configuration = configuration
    random = SeededRandom(seed: configuration.seed)
    interview = InterviewAPI(
      clock: configuration.clock, tokenLifetime: configuration.accessTokenLifetime, seed: configuration.seed,
      stateStore: configuration.stateStore)
  }

  /// Makes the next `times` requests on `route` fail with `fault`.
  public func inject(_ fault: Fault, on route: Route, times: Int = 1) {
    queuedFaults[route, default: []].append(contentsOf: repeatElement(fault, count: times))
  }

  /// Makes a seeded `rate` (0…1) of all requests fail with one of `faults`.
  public func setFaultRate(_ rate: Double, faults: [Fault]) {
    faultRate = faults.isEmpty ? 0 : rate
    rateFaults = faults
  }

  /// Requests received per route.
  public func requestCount(_ route: Route) -> Int { counts[route, default: 0] }

  /// Token refreshes the interview API has granted.
  public var refreshCount: Int { get async { await interview.refreshCount } }

  public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    guard let route = Self.route(for: request.url.host ?? "") else {
      throw .transport("host not found")
    }
    counts[route, default: 0] += 1
    var fault = queuedFaults[route]?.isEmpty == false ? queuedFaults[route]!.removeFirst() : nil
    if fault == nil, faultRate > 0, Double.random(in: 0..<1, using: &random) < faultRate {
      fault = rateFaults.randomElement(using: &random)
    }
    var wait = configuration.latency
    if case .delay(let extra) = fault { wait += extra }
    try await sleep(wait, timeout: request.timeout)
    switch fault {
    case .status(let code, let body): return Reply.text(code, body)
    case .malformedBody: return Reply.text(200, #"{"data": [{"temp": 71.6,"#)
    case .emptyBody: return Reply.text(200, "")
    case .transport(let reason): throw .transport(reason)
    case .delay, nil: break
    }
    switch route {
    case .weather: return handleWeather(request)
    case .geocode: return Geocoder.handle(request)
    case .randomNumber: return handleRandomNumber(request)
    case .directions: return handleDirections(request)
    case .interview: return await interview.handle(request)
    }
  }

  private func sleep(_ duration: Duration, timeout: Duration) async throws(HTTPError) {
    guard duration > .zero else {
      if Task.isCancelled { throw .cancelled }
      return
    }
    do {
      try await configuration.clock.sleep(for: min(duration, timeout))
    } catch {
      throw .cancelled
    }
    if duration >= timeout { throw .timedOut }
  }

  static func route(for host: String) -> Route? {
    switch host.lowercased() {
    case "api.weatherbit.io": .weather
    case "geocoding-api.open-meteo.com": .geocode
    case "www.randomnumberapi.com", "randomnumberapi.com": .randomNumber
    case "naveropenapi.apigw.ntruss.com", "maps.apigw.ntruss.com": .directions
    case InterviewAPI.host: .interview
    default: nil
    }
  }
}

/// Builds responses.
enum Reply {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  static func json(_ status: Int, _ value: some Encodable, headers: [String: String] = [:]) -> HTTPResponse {
    var headers = headers
    headers["Content-Type"] = "application/json"
    // Encoding our own plain structs cannot fail; an empty body would show it if it did.
    return HTTPResponse(status: status, headers: headers, body: (try? encoder.encode(value)) ?? Data())
  }

  static func text(_ status: Int, _ body: String, headers: [String: String] = ["Content-Type": "application/json"])
    -> HTTPResponse
  {
    HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
  }
}

extension EmbeddedBackend {
  /// Why a stored server state (`server.json`) is not of the shape this
  /// backend writes, or nil: for a ``FileKeyValueStore``'s `shape` check.
  public static func stateShapeProblem(_ state: [String: JSONValue]) -> String? {
    state.shapeProblem(InterviewAPI.storedShape)
  }
}
