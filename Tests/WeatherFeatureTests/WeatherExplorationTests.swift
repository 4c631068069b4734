import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import AppExplorations
import Testing
import WeatherFeature

@Suite("Exploring every order: the weather feature", .testBubble)
struct WeatherExplorationTests {
  @Test("Whatever order three cities' answers and failures arrive in, only the latest city shows, and loading ends")
  func latestCityWins() async {
    let report = await WeatherWorld.exploration.explore()
    print("weather, 3 cities × 2 answers per call: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
    #expect(report.distinctStates > 10)
  }

  @Test(
    "The coverage report lists every transition the machine has and marks the unreached ones: no stub answers with no place, so notFound is never reduced"
  )
  func coverage() async throws {
    let report = await WeatherWorld.exploration
      .coverage(
        states: ["idle", "loading"], of: { $0.isLoading ? "loading" : "idle" },
        inputs: ["cityEntered", "located", "notFound", "weatherLoaded", "failed"]
      )
      .explore()
    print("weather coverage: \(report)")
    let coverage = try #require(report.coverage)
    #expect(coverage.transitions.count == 10)
    #expect(coverage.unlisted.isEmpty)
    #expect(
      coverage.unreached == [
        // A lookup's results reach the machine only while it loads: a
        // superseded lookup's are dropped, and the last result ends loading.
        "idle × located", "idle × notFound", "idle × weatherLoaded", "idle × failed",
        // No stub answers geocode with an empty list.
        "loading × notFound",
        // Nothing cancels a lookup but the next city.
        "run lookup cancelled",
      ])
    #expect(coverage.callOutcomes.allSatisfy { $0.reached })
  }
}

/// `WeatherMachine` with a bug put back: its lookup has no cancellation
/// id, so a superseded city's answers still land.
struct WeatherWithoutCancellation: StateMachine {
  let base: WeatherMachine
  let geocoder: ExploredGeocoder
  let weather: ExploredWeather

  func reduce(into state: inout WeatherMachine.State, _ input: WeatherMachine.Input) -> Effect<
    WeatherMachine.Input, Never
  > {
    let effect = base.reduce(into: &state, input)
    guard case .cityEntered(let city) = input else { return effect }
    let (geocoder, weather) = (self.geocoder, self.weather)
    return .run { (send) async throws(WeatherError) in  // the bug: no `id: CancelID.lookup`
      guard let location = try await geocoder.locations(matching: city).first else { return send(.notFound) }
      send(.located(location))
      send(.weatherLoaded(try await weather.currentWeather(latitude: location.latitude, longitude: 0)))
    } catch: {
      .failed($0)
    }
  }
}

@Suite("Exploring every order finds a bug put back into the weather feature", .testBubble)
struct WeatherExplorationMutantTests {
  static let exploration = Exploration<WeatherWithoutCancellation>(
    inputs: .script(WeatherWorld.cities.map { .cityEntered($0) })
  ) { world in
    let (geocoder, weather) = WeatherWorld.dependencies(world)
    let base = WeatherMachine(geocoder: geocoder, weather: weather)
    return (WeatherWithoutCancellation(base: base, geocoder: geocoder, weather: weather), .init())
  }
  .invariant("the labels show the latest city asked for, never a superseded one") {
    WeatherWorld.showsOnlyTheLatest($0.state, inputs: $0.inputs, pendingCalls: $0.pendingCalls)
  }

  @Test(
    "Without the lookup's cancellation id, the shortest failing order is found and printed: Seoul's answer lands after Busan was asked for"
  )
  func missingCancellationIsFound() async throws {
    let report = await Self.exploration.explore()
    print("weather without its cancellation id: \(report)")
    let failure = try #require(report.failure)
    #expect(
      failure.steps.map { $0.description } == [
        #"send cityEntered("Seoul")"#, #"send cityEntered("Busan")"#, #"answer geocode("Seoul") with #0"#,
      ])
    #expect(failure.timeline.contains(#"3. answer geocode("Seoul") with #0  →  locationName: "Loading..." → "Seoul""#))

    // The order, replayed on the shipped machine, breaks nothing: a regression test.
    let shipped = await WeatherWorld.exploration.replay([
      .send(.cityEntered("Seoul")), .send(.cityEntered("Busan")),
    ])
    #expect(shipped.brokenInvariant == nil)
    #expect(shipped.state.locationName == "Loading...")
  }
}

@Suite("A seeded search finds a bug put back into the weather feature past the budget", .testBubble)
struct WeatherSearchTests {
  @Test(
    "Without the lookup's cancellation id: breadth first runs out of executions first; a seeded search finds it and its token replays it"
  )
  func missingCancellationIsFound() async throws {
    let report = try await WeatherExplorationMutantTests.exploration.searchPastTheBudget(5)
    print("weather without its cancellation id, searched: \(report)")
  }
}
