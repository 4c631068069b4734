import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing
import WeatherFeature

/// The weather feature's use cases, answered by the explorer.
struct ExploredGeocoder: GeocodingUseCase {
  let call: ExploredCall<String, [Location], WeatherError>
  func locations(matching address: String) async throws(WeatherError) -> [Location] { try await call(address) }
}

struct ExploredWeather: CurrentWeatherUseCase {
  let call: ExploredCall<Double, WeatherObservation, WeatherError>
  func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation {
    try await call(latitude)
  }
}

/// Each city answers with its own place (latitude = its number) and its
/// own temperature (10 × its number), or fails: so a label names whose
/// answer it shows.
enum WeatherWorld {
  static let cities = ["Seoul", "Busan", "Jeju"]

  static func temperature(ofCity city: String) -> Double {
    Double((cities.firstIndex(of: city) ?? 0) + 1) * 10
  }

  static func dependencies(_ world: ExplorationWorld) -> (ExploredGeocoder, ExploredWeather) {
    let geocode = world.call(
      "geocode",
      answers: { (city: String) -> [Result<[Location], WeatherError>] in
        let number = Double((cities.firstIndex(of: city) ?? 0) + 1)
        return [.success([Location(name: city, latitude: number, longitude: 0)]), .failure(.status(500))]
      }, whenCancelled: WeatherError.failedRequest("cancelled"))
    let weather = world.call(
      "weather",
      answers: { (latitude: Double) -> [Result<WeatherObservation, WeatherError>] in
        [
          .success(WeatherObservation(temperature: latitude * 10, description: "clear", iconName: "c01d", day: nil)),
          .failure(.status(503)),
        ]
      }, whenCancelled: WeatherError.failedRequest("cancelled"))
    return (ExploredGeocoder(call: geocode), ExploredWeather(call: weather))
  }

  /// The city last asked for.
  static func latest(_ inputs: [WeatherMachine.Input]) -> String? {
    inputs.compactMap { if case .cityEntered(let city) = $0 { city } else { nil } }.last
  }

  /// Whether the labels show the latest city asked for, its error, or
  /// nothing yet — never a superseded city's name; another city's weather
  /// only while the latest one's lookup is still in flight (the article's
  /// app keeps the last weather on screen until the new one lands).
  static func showsOnlyTheLatest(
    _ state: WeatherMachine.State, inputs: [WeatherMachine.Input], pendingCalls: [String]
  ) -> Bool {
    guard let latest = latest(inputs) else { return state.locationName == "Loading..." }
    let latestTemperature = WeatherMachine.temperatureLabel(temperature(ofCity: latest))
    let latestInFlight = pendingCalls.contains {
      $0 == "geocode(\"\(latest)\")" || $0 == "weather(\(temperature(ofCity: latest) / 10))"
    }
    let nameIsLatest = ["Loading...", latest, "Not found", ""].contains(state.locationName)
    let weatherIsLatest = state.temp == "0 ℉" || state.temp == latestTemperature || latestInFlight
    return nameIsLatest && weatherIsLatest
  }

  /// Once nothing is in flight: the latest city's weather or none, and no loading.
  static func settledOnTheLatest(_ observation: Exploration<WeatherMachine>.Observation) -> Bool {
    let state = observation.state
    guard let latest = latest(observation.inputs) else { return !state.isLoading }
    let latestTemperature = WeatherMachine.temperatureLabel(temperature(ofCity: latest))
    return !state.isLoading && [latest, "Not found", ""].contains(state.locationName)
      && (state.temp == "0 ℉" || state.temp == latestTemperature)
  }
}

@Suite("Exploring every order: the weather feature", .testBubble)
struct WeatherExplorationTests {
  static let exploration = Exploration<WeatherMachine>(
    inputs: .script(WeatherWorld.cities.map { .cityEntered($0) })
  ) { world in
    let (geocoder, weather) = WeatherWorld.dependencies(world)
    return (WeatherMachine(geocoder: geocoder, weather: weather), .init())
  }
  .invariant("the labels show the latest city asked for, never a superseded one") {
    WeatherWorld.showsOnlyTheLatest($0.state, inputs: $0.inputs, pendingCalls: $0.pendingCalls)
  }
  .invariant("one call at most is pending: a superseded lookup's call ends with its cancellation") {
    $0.pendingCalls.count <= 1
  }
  .whenSettled(
    "once nothing is in flight: the latest city's weather or none, and isLoading false", WeatherWorld.settledOnTheLatest
  )

  @Test("Whatever order three cities' answers and failures arrive in, only the latest city shows, and loading ends")
  func latestCityWins() async {
    let report = await Self.exploration.explore()
    print("weather, 3 cities × 2 answers per call: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
    #expect(report.distinctStates > 10)
  }

  @Test(
    "The coverage report lists every transition the machine has and marks the unreached ones: no stub answers with no place, so notFound is never reduced"
  )
  func coverage() async throws {
    let report = await Self.exploration
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
    let shipped = await WeatherExplorationTests.exploration.replay([
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
