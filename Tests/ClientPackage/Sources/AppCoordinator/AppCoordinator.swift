import ActorMVVMCoordinator
import LoginFeature
import WeatherFeature

/// The app's own module named `AppCoordinator`, as many apps have one: the
/// package's coordinator module is `ActorMVVMCoordinator`, so both resolve,
/// and `AppCoordinator.Screens` names this module's type.
public enum Screens {
  /// The package's coordinator actor, reached through its own module's name.
  public typealias Coordinator = ActorMVVMCoordinator.AppCoordinator
  public static let first = "login"
}
