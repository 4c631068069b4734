import ActorMVVM
import ActorMVVMTesting
import EmbeddedBackend
import Testing
import WeatherFeature

@Suite("Weather: the screen", .testBubble)
struct WeatherMachineTests {
  let backend = EmbeddedBackend()

  var machine: WeatherMachine {
    WeatherMachine(
      geocoder: OpenMeteoGeocoder(client: backend),
      weather: WeatherbitService(client: backend, apiKey: EmbeddedBackend.demoWeatherbitKey))
  }

  static let richmond = Location(name: "Richmond, VA", latitude: 37.55376, longitude: -77.46026)

  @Test("The article's test: \"Richmond, VA\" shows Loading..., then Richmond, VA and its weather")
  func richmond() async {
    let tester = FeatureTester(machine, initialState: .init())
    await tester.send(.cityEntered("Richmond, VA")) { $0.isLoading = true }
    await tester.receive(.located(Self.richmond)) { $0.locationName = "Richmond, VA" }
    await tester.receive(
      .weatherLoaded(.init(temperature: 71.6, description: "Broken clouds", iconName: "c03d", day: "2024-05-14"))
    ) {
      $0.date = "Tuesday, May 14"
      $0.temp = "72℉"
      $0.description = "Broken clouds"
      $0.forecastSummary = "Summary: Broken clouds"
      $0.iconName = "c03d"
      $0.isLoading = false
    }
    #expect(await tester.state.summary == "Broken clouds - 72℉")
    await tester.finish()
  }

  @Test("A place that does not exist reads \"Not found\" and clears the labels")
  func notFound() async {
    var state = WeatherMachine.State()
    state.locationName = "Seoul, South Korea"
    state.temp = "75℉"
    state.description = "Few clouds"
    let tester = FeatureTester(machine, initialState: state)
    await tester.send(.cityEntered("Atlantis")) {
      $0.locationName = "Loading..."
      $0.isLoading = true
    }
    await tester.receive(.notFound) {
      $0.locationName = "Not found"
      $0.temp = "0 ℉"
      $0.description = ""
      $0.isLoading = false
    }
    await tester.finish()
  }

  @Test("A lookup that fails before a place is found clears the labels and names no place")
  func failureBeforeAPlace() async {
    await backend.inject(.status(500), on: .geocode)
    var state = WeatherMachine.State()
    state.locationName = "Seoul, South Korea"
    state.temp = "75℉"
    state.description = "Few clouds"
    let tester = FeatureTester(machine, initialState: state)
    await tester.send(.cityEntered("Busan")) {
      $0.locationName = "Loading..."
      $0.isLoading = true
    }
    await tester.receive(.failed(.status(500))) {
      $0.locationName = ""
      $0.temp = "0 ℉"
      $0.description = ""
      $0.error = .status(500)
      $0.isLoading = false
    }
    await tester.finish()
  }

  @Test("A failed request is a typed error in state; nothing traps")
  func failure() async {
    await backend.inject(.status(500), on: .weather)
    let tester = FeatureTester(machine, initialState: .init())
    await tester.send(.cityEntered("Seoul")) { $0.isLoading = true }
    await tester.receive(.located(.init(name: "Seoul, South Korea", latitude: 37.566, longitude: 126.9784))) {
      $0.locationName = "Seoul, South Korea"
    }
    await tester.receive(.failed(.status(500))) {
      $0.error = .status(500)
      $0.isLoading = false
    }
    await tester.finish()
  }

  /// Answers when the test opens the city's gate, ignoring cancellation:
  /// a superseded lookup *does* come back, late.
  struct GatedGeocoder: GeocodingUseCase {
    let gates: [String: TestGate]
    func locations(matching address: String) async throws(WeatherError) -> [Location] {
      await gates[address]?.wait()
      return [Location(name: address, latitude: 1, longitude: 1)]
    }
  }

  struct FixedWeather: CurrentWeatherUseCase {
    func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation {
      WeatherObservation(temperature: 50, description: "Clear sky", iconName: "c01d", day: nil)
    }
  }

  @Test("A newer city supersedes the one in flight: the older answer never lands, even when it arrives last")
  func supersede() async {
    let gates = ["Seoul": TestGate(), "Richmond, VA": TestGate()]
    let feature = Feature(
      WeatherMachine(geocoder: GatedGeocoder(gates: gates), weather: FixedWeather()), initialState: .init(),
      counters: LifetimeCounters())
    let states = feature.stateValues
    feature.send(.cityEntered("Seoul"))
    feature.send(.cityEntered("Richmond, VA"))
    await feature.flush()  // both lookups started; Seoul's is superseded
    gates["Richmond, VA"]!.open()
    for await state in states where state.description == "Clear sky" {
      #expect(state.locationName == "Richmond, VA")
      break
    }
    gates["Seoul"]!.open()  // the stale answer arrives now, last
    await feature.idle()  // ...and has been handled: discarded
    let final = await feature.state
    #expect(final.locationName == "Richmond, VA")
    #expect(!final.isLoading)
    await feature.finish()
  }

  @Test("Labels: whole degrees rounded half to even; the article's date format")
  func labels() {
    #expect(WeatherMachine.temperatureLabel(71.6) == "72℉")
    #expect(WeatherMachine.temperatureLabel(72.5) == "72℉")
    #expect(WeatherMachine.temperatureLabel(-0.4) == "0℉")
    #expect(WeatherMachine.dateLabel(forDay: "2024-05-14") == "Tuesday, May 14")
    #expect(WeatherMachine.dateLabel(forDay: "2017-08-28") == "Monday, Aug 28")
    #expect(WeatherMachine.dateLabel(forDay: "garbage") == "")
    #expect(WeatherMachine.State().temp == "0 ℉")
    #expect(WeatherMachine.State().locationName == "Loading...")
  }
}
