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

  /// Finishes the feature: cancels its effects, ends its streams.
  public func finish() async {
    switch self {
    case .intro(let feature): await feature.finish()
    case .home(let feature): await feature.finish()
    case .weather(let feature): await feature.finish()
    case .login(let feature): await feature.finish()
    case .findNumber(let feature): await feature.finish()
    case .directions(let feature): await feature.finish()
    case .report(let feature): await feature.finish()
    case .messages(let feature): await feature.finish()
    case .declare(let feature): await feature.finish()
    case .myPage(let feature): await feature.finish()
    }
  }

  /// Outputs the feature has emitted so far.
  public var emittedOutputCount: Int {
    switch self {
    case .intro(let feature): feature.emittedOutputCount
    case .home(let feature): feature.emittedOutputCount
    case .weather(let feature): feature.emittedOutputCount
    case .login(let feature): feature.emittedOutputCount
    case .findNumber(let feature): feature.emittedOutputCount
    case .directions(let feature): feature.emittedOutputCount
    case .report(let feature): feature.emittedOutputCount
    case .messages(let feature): feature.emittedOutputCount
    case .declare(let feature): feature.emittedOutputCount
    case .myPage(let feature): feature.emittedOutputCount
    }
  }

  /// Waits until the feature's inputs are reduced and its effects have ended.
  public func idle() async {
    switch self {
    case .intro(let feature): await feature.idle()
    case .home(let feature): await feature.idle()
    case .weather(let feature): await feature.idle()
    case .login(let feature): await feature.idle()
    case .findNumber(let feature): await feature.idle()
    case .directions(let feature): await feature.idle()
    case .report(let feature): await feature.idle()
    case .messages(let feature): await feature.idle()
    case .declare(let feature): await feature.idle()
    case .myPage(let feature): await feature.idle()
    }
  }
}
