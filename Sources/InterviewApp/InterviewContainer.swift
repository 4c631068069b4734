import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMStorage
import DirectionsFeature
import FindNumberFeature
import Foundation
import InterviewFeature
import LoginFeature
import WeatherFeature

/// What the interview app is built from: the HTTP client, the clock, the
/// store, the API keys, and where its features are counted and traced.
public struct AppConfiguration: Sendable {
  public var httpClient: any HTTPClient
  public var clock: any Clock<Duration>
  /// Records (FindNumber) and the interview session.
  public var store: any KeyValueStore
  /// nil → the Weather screen reports a missing key instead of loading.
  public var weatherbitKey: String?
  /// nil → the Directions screen reports missing keys instead of routing.
  public var naverCredentials: NaverDirectionsClient.Credentials?
  public var counters: LifetimeCounters
  /// Where every feature's trace lines go (``FeatureTrace/printing(_:to:)``,
  /// prefixed with the screen's name), or nil for no tracing.
  public var trace: (@Sendable (String) -> Void)?

  public init(
    httpClient: any HTTPClient, clock: any Clock<Duration> = ContinuousClock(),
    store: any KeyValueStore = InMemoryKeyValueStore(), weatherbitKey: String?,
    naverCredentials: NaverDirectionsClient.Credentials?, counters: LifetimeCounters = .shared,
    trace: (@Sendable (String) -> Void)? = nil
  ) {
    self.trace = trace
    self.httpClient = httpClient
    self.clock = clock
    self.store = store
    self.weatherbitKey = weatherbitKey
    self.naverCredentials = naverCredentials
    self.counters = counters
  }
}

/// The interview app's dependencies: builds each screen's feature.
///
/// The composition root: the one place that builds concrete Data types and
/// wires them into features. No singletons: every dependency is built here
/// from ``AppConfiguration`` and injected. `Sendable`; the shared session,
/// records repository and API clients are created once.
public final class InterviewContainer: Sendable {
  public let configuration: AppConfiguration
  public let session: SessionManager
  let interviewAPI: InterviewAPIClient
  let auth: InterviewAuthService
  let records: StoredRecordRepository
  let geocoder: OpenMeteoGeocoder
  let weather: any CurrentWeatherUseCase
  let directions: any DirectionsService
  let numbers: RandomNumberAPIClient

  public init(_ configuration: AppConfiguration) {
    self.configuration = configuration
    let client = configuration.httpClient
    auth = InterviewAuthService(client: client)
    session = SessionManager(auth: auth, store: configuration.store, clock: configuration.clock)
    interviewAPI = InterviewAPIClient(client: client, session: session)
    records = StoredRecordRepository(store: configuration.store)
    geocoder = OpenMeteoGeocoder(client: client)
    weather =
      configuration.weatherbitKey.map { WeatherbitService(client: client, apiKey: $0) }
      ?? MissingKey(variable: "WEATHERBIT_API_KEY") as any CurrentWeatherUseCase
    directions =
      configuration.naverCredentials.map { NaverDirectionsClient(client: client, credentials: $0) }
      ?? MissingKey(variable: "NAVER_CLIENT_ID / NAVER_CLIENT_SECRET") as any DirectionsService
    numbers = RandomNumberAPIClient(client: client)
  }
}

extension InterviewContainer {
  /// A feature counted in the configuration's counters, traced to its
  /// ``AppConfiguration/trace`` sink (prefixed with `name`) if there is one:
  /// how a screen builds its feature. Not started until sent to.
  public func feature<Machine: StateMachine>(
    _ machine: Machine, _ initialState: Machine.State, name: String
  ) -> Feature<Machine> {
    Feature(
      machine, initialState: initialState, counters: configuration.counters,
      trace: configuration.trace.map { .printing(name, to: $0) })
  }
}

/// Stands in for a client whose key is not configured: every call fails
/// with one clear line naming the variable, and the other screens keep working.
struct MissingKey: CurrentWeatherUseCase, DirectionsService {
  let variable: String

  func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation {
    throw .failedRequest("missing API key: set \(variable)")
  }

  func route(_ navigation: NavigationData) async throws(DirectionsError) -> DrivingRoute {
    throw .unauthorized("missing API keys: set \(variable)")
  }
}
