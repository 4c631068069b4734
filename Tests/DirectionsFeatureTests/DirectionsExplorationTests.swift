import ActorMVVM
import ActorMVVMTestSupport
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

/// `DirectionsMachine` with a bug put back: a map tap moves a marker but
/// leaves the route in flight, which then lands on markers it was not
/// asked for.
struct DirectionsKeepingTheRoute: StateMachine {
  let base: DirectionsMachine

  func reduce(into state: inout DirectionsMachine.State, _ input: DirectionsMachine.Input) -> Effect<
    DirectionsMachine.Input, Never
  > {
    let effect = base.reduce(into: &state, input)
    if case .mapTapped = input { return .none }  // the bug: no `.cancel(id: CancelID.route)`
    return effect
  }
}

@Suite("A seeded search finds a bug put back into the route finder past the budget", .testBubble)
struct DirectionsSearchTests {
  @Test(
    "A tap that leaves the route in flight: breadth first runs out of executions first; a seeded search finds it and its token replays it"
  )
  func keptRouteIsFound() async throws {
    let report = try await Exploration<DirectionsKeepingTheRoute>(
      inputs: .alphabet(
        [DirectionsExplorationTests.tap(1), DirectionsExplorationTests.tap(2), .drawPathTapped], count: 5)
    ) { world in
      (DirectionsKeepingTheRoute(base: DirectionsMachine(service: ExploredDirections(world))), .init())
    }
    .invariant("a drawn path runs from the start marker to the goal marker") { observation in
      let state = observation.state
      return state.path.isEmpty || state.path == [state.start, state.goal].compactMap { $0 }
    }
    .reading(.none)
    .searchPastTheBudget(40)
    print("directions keeping the route, searched: \(report)")
    let failure = try #require(report.failure, "\(report)")
    #expect(failure.steps.count == 5)  // two taps, draw, a tap that moves the goal, the answer
  }
}
