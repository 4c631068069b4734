import ActorMVVM
import WeatherFeature

/// The weather screen (seed 000): opens on the article's default city.
public struct WeatherScreen: AppScreen {
  public static let name = "weather"
  public static let presentation = Presentation.push
  public let feature: Feature<WeatherMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      WeatherMachine(geocoder: container.geocoder, weather: container.weather), .init(), name: Self.name)
  }

  public var firstInput: WeatherMachine.Input? { .cityEntered(WeatherMachine.defaultCity) }

  /// Nothing it emits navigates.
  public static func handle(_ output: WeatherMachine.Output, in app: AppCoordinator) async {}
}

extension Route {
  public static var weather: Route { Route(WeatherScreen.self) }
}
