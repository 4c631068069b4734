import ActorMVVM
import DirectionsFeature

/// The route finder (seed 003).
public struct DirectionsScreen: AppScreen {
  public static let name = "directions"
  public static let presentation = Presentation.push
  public let feature: Feature<DirectionsMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(DirectionsMachine(service: container.directions), .init(), name: Self.name)
  }

  /// Nothing it emits navigates.
  public static func handle(_ output: DirectionsMachine.Output, in app: AppCoordinator) async {}
}

extension Route {
  public static var directions: Route { Route(DirectionsScreen.self) }
}
