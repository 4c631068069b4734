// How long exploring every order takes: the weather feature with 3 cities
// and 2 answers per call, as `WeatherExplorationTests` explores it. A
// separate executable from `Benchmarks`: exploring needs ActorMVVMTesting,
// whose job count (installed when it loads) would change every other row.
//
//   swift run -c release ExplorationBenchmark
import ActorMVVM
import ActorMVVMTesting
import Foundation
import WeatherFeature

struct Geocoder: GeocodingUseCase {
  let call: ExploredCall<String, [Location], WeatherError>
  func locations(matching address: String) async throws(WeatherError) -> [Location] { try await call(address) }
}

struct Weather: CurrentWeatherUseCase {
  let call: ExploredCall<Double, WeatherObservation, WeatherError>
  func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation {
    try await call(latitude)
  }
}

let cities = ["Seoul", "Busan", "Jeju"]
let exploration = Exploration<WeatherMachine>(inputs: .script(cities.map { .cityEntered($0) })) { world in
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
  return (WeatherMachine(geocoder: Geocoder(call: geocode), weather: Weather(call: weather)), .init())
}
.whenSettled("isLoading is false once nothing is in flight") { !$0.state.isLoading }

var times: [Duration] = []
var last: ExplorationReport<WeatherMachine>?
for _ in 0..<5 {
  let start = ContinuousClock.now
  last = await exploration.explore()
  times.append(.now - start)
}
let median = times.sorted()[2]
let milliseconds = Double(median.components.seconds) * 1_000 + Double(median.components.attoseconds) / 1e15
print(
  "exploring the weather feature, 3 cities × 2 answers per call: \(String(format: "%.1f", milliseconds)) ms "
    + "(median of 5; goal < 2 s) — \(last.map { "\($0)" } ?? "")")
