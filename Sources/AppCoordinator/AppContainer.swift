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

  public init(
    httpClient: any HTTPClient, clock: any Clock<Duration> = ContinuousClock(),
    store: any KeyValueStore = InMemoryKeyValueStore(), weatherbitKey: String?,
    naverCredentials: NaverDirectionsClient.Credentials?, counters: LifetimeCounters = .shared
  ) {
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
    let counters = configuration.counters
    switch route {
    case .intro:
      return .intro(
        Feature(IntroMachine(serviceCheck: interviewAPI, session: session), initialState: .init(), counters: counters))
    case .home:
      return .home(
        Feature(
          HomeMachine(home: interviewAPI), initialState: .init(member: await session.currentUser()), counters: counters)
      )
    case .weather:
      return .weather(
        Feature(WeatherMachine(geocoder: geocoder, weather: weather), initialState: .init(), counters: counters))
    case .login:
      return .login(Feature(LoginMachine(auth: auth), initialState: .init(), counters: counters))
    case .findNumber:
      return .findNumber(
        Feature(
          FindNumberMachine(numbers: numbers, records: records),
          initialState: await FindNumberMachine.initialState(from: records), counters: counters))
    case .directions:
      return .directions(Feature(DirectionsMachine(service: directions), initialState: .init(), counters: counters))
    case .report(let termNo):
      return .report(
        Feature(ReportMachine(analysis: interviewAPI), initialState: .init(termNo: termNo), counters: counters))
    case .messages:
      return .messages(Feature(MessagesMachine(messages: interviewAPI), initialState: .init(), counters: counters))
    case .declare(let messageId):
      var message = Message(messageId: messageId, sender: "", text: "", sentAt: "")
      for room in (try? await interviewAPI.rooms()) ?? [] {
        if let found = (try? await interviewAPI.messages(roomId: room.roomId))?.first(where: {
          $0.messageId == messageId
        }) {
          message = found
          break
        }
      }
      return makeDeclareScreen(message)
    case .myPage:
      return .myPage(
        Feature(MyPageMachine(myPage: interviewAPI, session: session), initialState: .init(), counters: counters))
    }
  }
}

extension AppContainer {
  /// The declare screen for a message the room already has.
  public func makeDeclareScreen(_ message: Message) -> Screen {
    .declare(
      Feature(
        DeclareMachine(declare: interviewAPI), initialState: .init(message: message), counters: configuration.counters))
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
