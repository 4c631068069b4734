import ActorMVVM
import ActorMVVMCoordinator
import DirectionsFeature

/// The route finder (seed 003).
public struct DirectionsScreen: AppScreen {
  public typealias Dependencies = InterviewContainer
  public typealias AppOutput = InterviewOutput
  public static let name = "directions"
  public static let presentation = Presentation.push
  public let feature: Feature<DirectionsMachine>

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(DirectionsMachine(service: container.directions), .init(), name: Self.name)
  }
}

extension Route {
  public static var directions: Route { Route(DirectionsScreen.self) }
}
