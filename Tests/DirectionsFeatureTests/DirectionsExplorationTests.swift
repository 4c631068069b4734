import ActorMVVM
import ActorMVVMTesting
import DirectionsFeature
import Testing

/// The directions service, answered by the explorer: a route from the
/// start to the goal asked for (its path is those two points), or a failure.
struct ExploredDirections: DirectionsService {
  let call: ExploredCall<String, DrivingRoute, DirectionsError>

  init(_ world: ExplorationWorld) {
    call = world.call(
      "route",
      answers: { (markers: String) -> [Result<DrivingRoute, DirectionsError>] in
        let points = markers.split(separator: "→").map { Double($0)! }
        let path = points.map { Coordinate(latitude: $0, longitude: 0) }
        let summary = RouteSummary(distanceMetres: 1, duration: .seconds(1), tollFare: 0, taxiFare: 0, fuelPrice: 0)
        return [.success(DrivingRoute(summary: summary, path: path, guide: [])), .failure(.failedRequest("500"))]
      }, whenCancelled: DirectionsError.failedRequest("cancelled"))
  }

  func route(_ navigation: NavigationData) async throws(DirectionsError) -> DrivingRoute {
    try await call("\(navigation.start.latitude)→\(navigation.goal.latitude)")
  }
}

@Suite("Exploring every order: the route finder", .testBubble)
struct DirectionsExplorationTests {
  static func tap(_ latitude: Double) -> DirectionsMachine.Input {
    .mapTapped(Coordinate(latitude: latitude, longitude: 0))
  }

  @Test(
    "Any 5 of two map taps, draw and reset, answered or failed in any order: a drawn path joins the markers on the map; loading ends once nothing is in flight"
  )
  func pathMatchesTheMarkers() async {
    let report = await Exploration<DirectionsMachine>(
      inputs: .alphabet([Self.tap(1), Self.tap(2), .drawPathTapped, .resetMarkersTapped], count: 5)
    ) { world in
      (DirectionsMachine(service: ExploredDirections(world)), .init())
    }
    .invariant("a drawn path runs from the start marker to the goal marker") { observation in
      let state = observation.state
      return state.path.isEmpty || state.path == [state.start, state.goal].compactMap { $0 }
    }
    .whenSettled("isLoading is false once nothing is in flight") { !$0.state.isLoading }
    .reading(.none)  // the rules read the state alone
    .explore()
    print("directions, any 5 of 4 inputs × 2 answers: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
  }
}
