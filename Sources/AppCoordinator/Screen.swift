import ActorMVVM
import DirectionsFeature
import FindNumberFeature
import InterviewFeature
import LoginFeature
import WeatherFeature

/// A live screen: its route and the feature running it.
public enum Screen: Sendable {
  case intro(Feature<IntroMachine>)
  case home(Feature<HomeMachine>)
  case weather(Feature<WeatherMachine>)
  case login(Feature<LoginMachine>)
  case findNumber(Feature<FindNumberMachine>)
  case directions(Feature<DirectionsMachine>)
  case report(Feature<ReportMachine>)
  case messages(Feature<MessagesMachine>)
  case declare(Feature<DeclareMachine>)
  case myPage(Feature<MyPageMachine>)

  /// The feature behind the screen, seen through what every feature shares.
  public var feature: any ScreenFeature {
    switch self {
    case .intro(let feature): feature
    case .home(let feature): feature
    case .weather(let feature): feature
    case .login(let feature): feature
    case .findNumber(let feature): feature
    case .directions(let feature): feature
    case .report(let feature): feature
    case .messages(let feature): feature
    case .declare(let feature): feature
    case .myPage(let feature): feature
    }
  }

  /// Finishes the feature: cancels its effects, ends its streams.
  public func finish() async { await feature.finish() }

  /// Outputs the feature has emitted so far.
  public var emittedOutputCount: Int { feature.emittedOutputCount }

  /// Waits until the feature's inputs are reduced and its effects have ended.
  public func idle() async { await feature.idle() }

  /// The feature's identity: two screens are the same screen when it is equal.
  public var identity: ObjectIdentifier { ObjectIdentifier(feature) }
}

/// What the coordinator and a view layer need of any screen's feature,
/// whatever its machine: its lifetime and how busy it is. ``Feature``
/// conforms; each member keeps `Feature`'s own contract.
public protocol ScreenFeature: AnyObject, Sendable {
  /// See ``Feature/finish()``.
  func finish() async
  /// See ``Feature/idle()``.
  func idle() async
  /// See ``Feature/flush()``.
  func flush() async
  /// See ``Feature/emittedOutputCount``.
  var emittedOutputCount: Int { get }
  /// Effect tasks that have not returned (live or winding down), after the
  /// inputs sent so far are reduced.
  var activeEffectCount: Int { get async }
}

extension Feature: ScreenFeature {}
