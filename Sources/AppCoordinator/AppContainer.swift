import ActorMVVM
import DirectionsFeature
import FindNumberFeature
import Foundation
import InterviewFeature
import LoginFeature
import Networking
import Storage
import WeatherFeature

/// The composition root: the one place that names concrete Data types and
/// wires them into features. No singletons: every dependency is built here
/// from ``AppConfiguration`` and injected.
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

/// Builds each screen's feature with its dependencies. `Sendable`; the
/// shared actors (session, API clients) are created once.
public final class AppContainer: Sendable {
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

  /// A new feature for `route`, not yet started.
  public func makeScreen(_ route: Route) async -> Screen {
    switch route {
    case .intro:
      return .intro(
        feature(IntroMachine(serviceCheck: interviewAPI, session: session), .init(), name: route.name))
    case .home:
      return .home(
        feature(HomeMachine(home: interviewAPI), .init(member: await session.currentUser()), name: route.name)
      )
    case .weather:
      return .weather(
        feature(WeatherMachine(geocoder: geocoder, weather: weather), .init(), name: route.name))
    case .login:
      return .login(feature(LoginMachine(auth: auth), .init(), name: route.name))
    case .findNumber:
      return .findNumber(
        feature(
          FindNumberMachine(numbers: numbers, records: records), await FindNumberMachine.initialState(from: records),
          name: route.name))
    case .directions:
      return .directions(feature(DirectionsMachine(service: directions), .init(), name: route.name))
    case .report(let termNo):
      return .report(
        feature(ReportMachine(analysis: interviewAPI), .init(termNo: termNo), name: route.name))
    case .messages:
      return .messages(
        feature(
          MessagesMachine(messages: interviewAPI), .init(memberID: await session.currentUser()?.id), name: route.name))
    case .declare(let messageId):
      // Opened by route rather than from a room: the screen knows the id,
      // which is all declaring needs; no room is fetched to find its text.
      return makeDeclareScreen(Message(messageId: messageId, sender: "", text: "", sentAt: ""))
    case .myPage:
      return .myPage(
        feature(MyPageMachine(myPage: interviewAPI, session: session), .init(), name: route.name))
    }
  }
}

extension AppContainer {
  /// A feature counted in the configuration's counters, traced to its
  /// ``AppConfiguration/trace`` sink (prefixed with `name`) if there is one.
  func feature<Machine: StateMachine>(
    _ machine: Machine, _ initialState: Machine.State, name: String
  ) -> Feature<Machine> {
    Feature(
      machine, initialState: initialState, counters: configuration.counters,
      trace: configuration.trace.map { .printing(name, to: $0) })
  }

  /// The declare screen for a message the room already has.
  public func makeDeclareScreen(_ message: Message) -> Screen {
    .declare(
      feature(DeclareMachine(declare: interviewAPI), .init(message: message), name: "declare"))
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
