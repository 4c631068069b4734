// The five apps' explorations (their stubs, their rules and the shipped
// machines' explorations), shared by the feature tests and the
// ExplorationBenchmark executable: no Testing here, the benchmark links it.
import ActorMVVM
import ActorMVVMTesting
import WeatherFeature

/// The weather feature's use cases, answered by the explorer.
public struct ExploredGeocoder: GeocodingUseCase {
  public let call: ExploredCall<String, [Location], WeatherError>

  public init(call: ExploredCall<String, [Location], WeatherError>) { self.call = call }

  public func locations(matching address: String) async throws(WeatherError) -> [Location] {
    try await call(address)
  }
}

public struct ExploredWeather: CurrentWeatherUseCase {
  public let call: ExploredCall<Double, WeatherObservation, WeatherError>

  public init(call: ExploredCall<Double, WeatherObservation, WeatherError>) { self.call = call }

  public func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation {
    try await call(latitude)
  }
}

/// Each city answers with its own place (latitude = its number) and its
/// own temperature (10 × its number), or fails: so a label names whose
/// answer it shows.
public enum WeatherWorld {
  public static let cities = ["Seoul", "Busan", "Jeju"]

  public static func temperature(ofCity city: String) -> Double {
    Double((cities.firstIndex(of: city) ?? 0) + 1) * 10
  }

  public static func dependencies(_ world: ExplorationWorld) -> (ExploredGeocoder, ExploredWeather) {
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
  public static func latest(_ inputs: [WeatherMachine.Input]) -> String? {
    inputs.compactMap { if case .cityEntered(let city) = $0 { city } else { nil } }.last
  }

  /// Whether the labels show the latest city asked for, its error, or
  /// nothing yet — never a superseded city's name; another city's weather
  /// only while the latest one's lookup is still in flight (the article's
  /// app keeps the last weather on screen until the new one lands).
  public static func showsOnlyTheLatest(
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
  public static func settledOnTheLatest(_ observation: Exploration<WeatherMachine>.Observation) -> Bool {
    let state = observation.state
    guard let latest = latest(observation.inputs) else { return !state.isLoading }
    let latestTemperature = WeatherMachine.temperatureLabel(temperature(ofCity: latest))
    return !state.isLoading && [latest, "Not found", ""].contains(state.locationName)
      && (state.temp == "0 ℉" || state.temp == latestTemperature)
  }

  /// The shipped machine, explored: the three cities asked for in turn,
  /// each call answered or failed in every order.
  public static let exploration = Exploration<WeatherMachine>(
    inputs: .script(cities.map { .cityEntered($0) })
  ) { world in
    let (geocoder, weather) = dependencies(world)
    return (WeatherMachine(geocoder: geocoder, weather: weather), .init())
  }
  .invariant("the labels show the latest city asked for, never a superseded one") {
    showsOnlyTheLatest($0.state, inputs: $0.inputs, pendingCalls: $0.pendingCalls)
  }
  .invariant("one call at most is pending: a superseded lookup's call ends with its cancellation") {
    $0.pendingCalls.count <= 1
  }
  .whenSettled("once nothing is in flight: the latest city's weather or none, and isLoading false", settledOnTheLatest)
}
