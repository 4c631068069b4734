import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import AppExplorations
import DirectionsFeature
import Testing

@Suite("Exploring every order: the route finder", .testBubble)
struct DirectionsExplorationTests {
  @Test(
    "Any 5 of two map taps, draw and reset, answered or failed in any order: a drawn path joins the markers on the map; loading ends once nothing is in flight"
  )
  func pathMatchesTheMarkers() async {
    let report = await DirectionsRules.exploration.explore()
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
      inputs: .alphabet([DirectionsRules.tap(1), DirectionsRules.tap(2), .drawPathTapped], count: 5)
    ) { world in
      (DirectionsKeepingTheRoute(base: DirectionsMachine(service: ExploredDirections(world))), .init())
    }
    .invariant("a drawn path runs from the start marker to the goal marker") {
      DirectionsRules.pathJoinsTheMarkers($0.state)
    }
    .reading(.none)
    .searchPastTheBudget(40)
    print("directions keeping the route, searched: \(report)")
    let failure = try #require(report.failure, "\(report)")
    #expect(failure.steps.count == 5)  // two taps, draw, a tap that moves the goal, the answer
  }
}
