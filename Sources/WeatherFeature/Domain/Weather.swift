/// A place the user asked for, resolved to coordinates.
public struct Location: Equatable, Sendable {
  /// How the screen names it: "Richmond, VA".
  public var name: String
  public var latitude: Double
  public var longitude: Double

  public init(name: String, latitude: Double, longitude: Double) {
    self.name = name
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// Current weather at a location (°F).
public struct WeatherObservation: Equatable, Sendable {
  public var temperature: Double
  public var description: String
  public var iconName: String
  /// The observation's day, "yyyy-MM-dd", when the API gave one.
  public var day: String?

  public init(temperature: Double, description: String, iconName: String, day: String?) {
    self.temperature = temperature
    self.description = description
    self.iconName = iconName
    self.day = day
  }
}

/// Why weather could not be shown: the article's `WeatherbitError` cases,
/// with the status code kept apart from other failed requests.
public enum WeatherError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The request did not complete (no connection, timeout…).
  case failedRequest(String)
  /// The answer had no observation.
  case noData
  /// The answer was not an HTTP response.
  case invalidResponse
  /// The API answered with a status other than 200.
  case status(Int)
  /// The answer did not decode.
  case invalidData(String)

  public var description: String {
    switch self {
    case .failedRequest(let reason): "Failed request: \(reason)"
    case .noData: "No data returned"
    case .invalidResponse: "Unable to process the response"
    case .status(let code): "Failure response: \(code)"
    case .invalidData(let reason): "Unable to decode the response: \(reason)"
    }
  }
}

/// Resolves what the user typed to places ("Richmond, VA" → Richmond, Virginia).
/// An empty result means nothing matched.
public protocol GeocodingUseCase: Sendable {
  func locations(matching address: String) async throws(WeatherError) -> [Location]
}

/// Current weather at coordinates: the article's `Single<WeatherbitData>`
/// as an `async throws` function.
public protocol CurrentWeatherUseCase: Sendable {
  func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation
}
