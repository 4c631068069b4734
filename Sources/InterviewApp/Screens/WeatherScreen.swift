import ActorMVVM
import ActorMVVMCoordinator
import WeatherFeature

/// The weather screen (seed 000): opens on the article's default city.
public struct WeatherScreen: AppScreen {
  public typealias Dependencies = InterviewContainer
  public typealias AppOutput = InterviewOutput
  public static let name = "weather"
  public static let presentation = Presentation.push
  public let feature: Feature<WeatherMachine>

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      WeatherMachine(geocoder: container.geocoder, weather: container.weather), .init(), name: Self.name)
  }

  public var firstInput: WeatherMachine.Input? { .cityEntered(WeatherMachine.defaultCity) }
}

extension Route {
  public static var weather: Route { Route(WeatherScreen.self) }
}
