import ActorMVVM

/// The weather screen (seed 000): type a city, see its current weather.
///
/// The article's relays become one `State`: `locationName` is the
/// `BehaviorRelay("Loading...")`, `temp` the `BehaviorRelay("0 ℉")`, and the
/// `combineLatest(temp, description)` label is ``State/summary``. The
/// `Single`s become two `async throws` use cases run by one effect: a newer
/// city supersedes the older lookup (its answers never land).
///
/// The place name is the geocoder's (`"Richmond, VA"` for `richmond, va`
/// or `Richmond, XX`), as CLGeocoder's placemark was, so the name always
/// says whose weather is shown. A lookup that ends without weather — the
/// place is not found, or a request fails — clears the weather labels:
/// `locationName` reads "Not found", or, after a failure, the place found
/// (empty if none was) with `error` saying why.
public struct WeatherMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var locationName = "Loading..."
    public var date = ""
    public var temp = "0 ℉"
    public var description = ""
    public var forecastSummary = ""
    public var iconName = ""
    public var isLoading = false
    public var error: WeatherError?

    public init() {}

    /// The article's `combineLatest(temp, description)` label: "Broken clouds - 72℉".
    public var summary: String { description.isEmpty ? "" : "\(description) - \(temp)" }
  }

  public enum Input: Sendable, Equatable {
    /// The user typed a city ("Richmond, VA").
    case cityEntered(String)
    /// The geocoder resolved it.
    case located(Location)
    /// The geocoder found nothing.
    case notFound
    /// Weatherbit answered.
    case weatherLoaded(WeatherObservation)
    /// Geocoding or Weatherbit failed.
    case failed(WeatherError)
  }

  public typealias Output = Never

  /// The city the article's app opens with.
  public static let defaultCity = "McGaheysville, VA"

  let geocoder: any GeocodingUseCase
  let weather: any CurrentWeatherUseCase

  public init(geocoder: any GeocodingUseCase, weather: any CurrentWeatherUseCase) {
    self.geocoder = geocoder
    self.weather = weather
  }

  enum CancelID: Hashable, Sendable { case lookup }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .cityEntered(let city):
      state.locationName = "Loading..."
      state.isLoading = true
      state.error = nil
      let (geocoder, weather) = (self.geocoder, self.weather)
      return .run(id: CancelID.lookup) { (send) async throws(WeatherError) in
        guard let location = try await geocoder.locations(matching: city).first else {
          send(.notFound)
          return
        }
        send(.located(location))
        send(
          .weatherLoaded(try await weather.currentWeather(latitude: location.latitude, longitude: location.longitude)))
      } catch: {
        .failed($0)
      }
    case .located(let location):
      state.locationName = location.name
      return .none
    case .notFound:
      state.locationName = "Not found"
      Self.clearWeather(&state)
      return .none
    case .weatherLoaded(let observation):
      state.date = Self.dateLabel(forDay: observation.day)
      state.temp = Self.temperatureLabel(observation.temperature)
      state.description = observation.description
      state.forecastSummary = "Summary: \(observation.description)"
      state.iconName = observation.iconName
      state.isLoading = false
      return .none
    case .failed(let error):
      state.error = error
      // The place found (if any) stays; a lookup that failed before one was found names none.
      if state.locationName == "Loading..." { state.locationName = "" }
      Self.clearWeather(&state)
      return .none
    }
  }

  /// A lookup that ends without weather leaves none on screen: the labels
  /// go back to their defaults, so one place's weather never shows under
  /// another's name.
  static func clearWeather(_ state: inout State) {
    state.date = ""
    state.temp = "0 ℉"
    state.description = ""
    state.forecastSummary = ""
    state.iconName = ""
    state.isLoading = false
  }

  /// A whole-degree temperature, rounded as `NumberFormatter`'s `.none`
  /// style does (half to even): 71.6 → "72℉".
  public static func temperatureLabel(_ fahrenheit: Double) -> String {
    "\(Int(fahrenheit.rounded(.toNearestOrEven)))℉"
  }

  /// "2024-05-14" → "Tuesday, May 14" (the article's `"EEEE, MMM d"` format in
  /// English); "" when the API gave no usable day.
  public static func dateLabel(forDay day: String?) -> String {
    let parts = (day ?? "").split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return "" }
    let (year, month, dayOfMonth) = (parts[0], parts[1], parts[2])
    // Sakamoto's method: 0 = Sunday.
    let offsets = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4]
    let y = month < 3 ? year - 1 : year
    let weekday = (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + dayOfMonth) % 7
    let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    return "\(weekdays[weekday]), \(months[month - 1]) \(dayOfMonth)"
  }
}
