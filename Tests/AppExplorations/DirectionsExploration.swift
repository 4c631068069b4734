import ActorMVVM
import ActorMVVMTesting
import DirectionsFeature

/// The directions service, answered by the explorer: a route from the
/// start to the goal asked for (its path is those two points), or a failure.
public struct ExploredDirections: DirectionsService {
  public let call: ExploredCall<String, DrivingRoute, DirectionsError>

  public init(_ world: ExplorationWorld) {
    call = world.call(
      "route",
      answers: { (markers: String) -> [Result<DrivingRoute, DirectionsError>] in
        let points = markers.split(separator: "→").map { Double($0)! }
        let path = points.map { Coordinate(latitude: $0, longitude: 0) }
        let summary = RouteSummary(distanceMetres: 1, duration: .seconds(1), tollFare: 0, taxiFare: 0, fuelPrice: 0)
        return [.success(DrivingRoute(summary: summary, path: path, guide: [])), .failure(.failedRequest("500"))]
      }, whenCancelled: DirectionsError.failedRequest("cancelled"))
  }

  public func route(_ navigation: NavigationData) async throws(DirectionsError) -> DrivingRoute {
    try await call("\(navigation.start.latitude)→\(navigation.goal.latitude)")
  }
}

/// The route finder's rules, and the shipped machine explored.
public enum DirectionsRules {
  /// A tap on the map at `latitude` (longitude 0).
  public static func tap(_ latitude: Double) -> DirectionsMachine.Input {
    .mapTapped(Coordinate(latitude: latitude, longitude: 0))
  }

  /// Whether a drawn path, if any, runs from the start marker to the goal marker.
  public static func pathJoinsTheMarkers(_ state: DirectionsMachine.State) -> Bool {
    state.path.isEmpty || state.path == [state.start, state.goal].compactMap { $0 }
  }

  /// The shipped machine, explored: any 5 of two map taps, draw and reset,
  /// each route answered or failed in every order.
  public static let exploration = Exploration<DirectionsMachine>(
    inputs: .alphabet([tap(1), tap(2), .drawPathTapped, .resetMarkersTapped], count: 5)
  ) { world in
    (DirectionsMachine(service: ExploredDirections(world)), .init())
  }
  .invariant("a drawn path runs from the start marker to the goal marker") { pathJoinsTheMarkers($0.state) }
  .whenSettled("isLoading is false once nothing is in flight") { !$0.state.isLoading }
  .reading(.none)  // the rules read the state alone
}
