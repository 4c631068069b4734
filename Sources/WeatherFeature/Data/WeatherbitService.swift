import ActorMVVMNetworking

/// Weatherbit's current-weather API behind ``CurrentWeatherUseCase``.
///
/// Builds `GET https://api.weatherbit.io/v2.0/current?key=…&units=I&lat=…&lon=…`
/// (the article's order), decodes only what the screen shows, and maps every
/// failure to ``WeatherError``. The key is sent, never logged: request
/// descriptions redact it.
///
/// A `Sendable` struct holding only constants: calls run concurrently, in
/// the caller's task, with no actor hop; what has state (the `HTTPClient`
/// actor, the session) guards it itself.
public struct WeatherbitService: Sendable, CurrentWeatherUseCase {
  private let client: any HTTPClient
  private let apiKey: String
  private let host: String

  public init(client: any HTTPClient, apiKey: String, host: String = "api.weatherbit.io") {
    self.client = client
    self.apiKey = apiKey
    self.host = host
  }

  /// What the screen needs of Weatherbit's answer (the article's `WeatherbitData`).
  struct Current: Decodable {
    struct Observation: Decodable {
      struct Weather: Decodable {
        let icon: String
        let description: String
      }
      let temp: Double
      let datetime: String?
      let weather: Weather
    }
    let data: [Observation]
  }

  public func currentWeather(latitude: Double, longitude: Double) async throws(WeatherError) -> WeatherObservation {
    let (client, host, apiKey) = (self.client, self.host, self.apiKey)
    let current = try await HTTPError.mapping(WeatherError.init) { () async throws(HTTPError) in
      let request = try HTTPRequest(
        host: host, path: "/v2.0/current",
        query: [("key", apiKey), ("units", "I"), ("lat", "\(latitude)"), ("lon", "\(longitude)")])
      return try await client.send(request).decode(Current.self)
    }
    guard let observation = current.data.first else { throw .noData }
    return WeatherObservation(
      temperature: observation.temp, description: observation.weather.description,
      iconName: observation.weather.icon, day: observation.datetime.map { String($0.prefix(10)) })
  }
}
