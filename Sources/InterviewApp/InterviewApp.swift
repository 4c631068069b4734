import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// The five articles' app, as the coordinator runs it: its screens, the
/// container they are built from, its flow (``InterviewFlow``) and the
/// chores that flow asks for.
///
/// ```swift
/// let app = AppCoordinator(InterviewApp(AppConfiguration(httpClient: backend, weatherbitKey: nil, naverCredentials: nil)))
/// ```
public struct InterviewApp: CoordinatedApp {
  /// Every kind of screen the app has, in the order the REPL's `open` lists them.
  public static let screens: [any AppScreen<InterviewContainer, InterviewOutput>.Type] = [
    WeatherScreen.self, LoginScreen.self, FindNumberScreen.self, DirectionsScreen.self, ReportScreen.self,
    MessagesScreen.self, MyPageScreen.self, HomeScreen.self, IntroScreen.self, DeclareScreen.self,
  ]

  /// One example of every deep-link form, as `help` and Tab completion show them.
  public static let deepLinkExamples = DeepLink.examples

  /// Why the app ignores `link`, if it does (the article's navigator ends
  /// in `default: break`): for a driver to say so instead of "no change".
  public static func whyIgnored(_ link: DeepLink) -> String? {
    guard case .other(let host) = link else { return nil }
    if host.lowercased() == "expiration" {
      return "the app ignores this link: expiration opens My Page for days=1, 3 or 7"
    }
    return "the app ignores actormvvm://\(host): it opens analysis-complete and expiration links only"
  }

  public let flow = InterviewFlow()
  public let dependencies: InterviewContainer

  /// The app built from `configuration` (a new container: a session, API
  /// clients, the records store).
  public init(_ configuration: AppConfiguration) {
    dependencies = InterviewContainer(configuration)
  }

  public var counters: LifetimeCounters { dependencies.configuration.counters }

  /// Stores a session that logged in, or forgets an expired one.
  public func perform(_ chore: InterviewFlow.Chore) async {
    switch chore {
    case .startSession(let session): await dependencies.session.start(session)
    case .logout: await dependencies.session.logout()
    }
  }
}
