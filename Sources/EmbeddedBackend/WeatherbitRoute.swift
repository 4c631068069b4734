import ActorMVVMNetworking
import Foundation

/// Weatherbit's current-weather observation, as its API spells it.
struct WeatherbitObservation: Encodable {
  struct Weather: Encodable {
    let code: Int
    let description: String
    let icon: String
  }
  let app_temp: Double
  let aqi: Int
  let city_name: String
  let clouds: Int
  let country_code: String
  let datetime: String
  let dewpt: Double
  let gust: Double
  let lat: Double
  let lon: Double
  let ob_time: String
  let pod: String
  let precip: Double
  let pres: Double
  let rh: Int
  let slp: Double
  let snow: Double
  let sources: [String]
  let state_code: String
  let station: String
  let sunrise: String
  let sunset: String
  let temp: Double
  let timezone: String
  let ts: Int
  let uv: Double
  let vis: Double
  let weather: Weather
  let wind_cdir: String
  let wind_cdir_full: String
  let wind_dir: Int
  let wind_spd: Double
}

struct WeatherbitCurrent: Encodable {
  let count: Int
  let data: [WeatherbitObservation]
}

extension EmbeddedBackend {
  /// `GET /v2.0/current?key=…&units=I&lat=…&lon=…` (or `city=`).
  func handleWeather(_ request: HTTPRequest) -> HTTPResponse {
    guard request.url.path == "/v2.0/current" else { return Reply.json(404, ["error": "Invalid endpoint."]) }
    guard let key = request.queryValue("key"), !key.isEmpty else {
      return Reply.json(403, ["error": "API key is required."])
    }
    guard key == configuration.weatherbitKey else {
      return Reply.json(
        403,
        [
          "error":
            "API key not valid, or not yet activated. If you recently signed up for an account or created this key, please allow up to 30 minutes for key to activate."
        ])
    }
    let units = request.queryValue("units") ?? "M"
    guard ["M", "S", "I"].contains(units) else { return Reply.json(400, ["error": "Invalid Parameters supplied."]) }
    let city: City
    if let latText = request.queryValue("lat"), let lonText = request.queryValue("lon") {
      guard let lat = Double(latText), let lon = Double(lonText) else {
        return Reply.json(400, ["error": "Invalid lat/lon supplied."])
      }
      guard (-90...90).contains(lat) else {
        return Reply.json(400, ["error": "Invalid lat supplied. Must be between -90 and +90"])
      }
      guard (-180...180).contains(lon) else {
        return Reply.json(400, ["error": "Invalid lon supplied. Must be between -180 and +180"])
      }
      city = City.nearest(latitude: lat, longitude: lon)
    } else if let name = request.queryValue("city"),
      let match = City.all.first(where: {
        $0.name.caseInsensitiveCompare(name.split(separator: ",").first.map(String.init) ?? name) == .orderedSame
      })
    {
      city = match
    } else {
      return Reply.json(400, ["error": "Invalid Parameters supplied."])
    }
    return Reply.json(200, WeatherbitCurrent(count: 1, data: [observation(at: city, units: units)]))
  }

  private func observation(at city: City, units: String) -> WeatherbitObservation {
    // Seed 0 reports the table's weather; other seeds shift it by up to ±5 °F.
    var cityRandom = SeededRandom(seed: configuration.seed ^ UInt64(city.id))
    let shift = configuration.seed == 0 ? 0 : Double(Int.random(in: -50...50, using: &cityRandom)) / 10
    let fahrenheit = city.temperatureF + shift
    func temperature(_ f: Double) -> Double {
      let value: Double =
        switch units {
        case "I": f
        case "S": (f - 32) * 5 / 9 + 273.15
        default: (f - 32) * 5 / 9
        }
      return (value * 10).rounded() / 10
    }
    let speed = units == "I" ? 8.7 : 3.9
    return WeatherbitObservation(
      app_temp: temperature(fahrenheit - 0.4), aqi: 41, city_name: city.name, clouds: 75,
      country_code: city.countryCode, datetime: "2024-05-14:18", dewpt: temperature(fahrenheit - 19.5),
      gust: speed * 1.6, lat: city.latitude, lon: city.longitude, ob_time: "2024-05-14 18:00", pod: "d", precip: 0,
      pres: 1008.5, rh: 50, slp: 1014.6, snow: 0, sources: ["embedded"], state_code: city.stateCode,
      station: "EMBD", sunrise: "10:05", sunset: "00:13", temp: temperature(fahrenheit), timezone: city.timezone,
      ts: 1_715_709_600, uv: 6.5, vis: units == "I" ? 9.9 : 16,
      weather: .init(code: city.weather.code, description: city.weather.description, icon: city.weather.icon),
      wind_cdir: "SSW", wind_cdir_full: "south-southwest", wind_dir: 200, wind_spd: speed)
  }

  /// `GET /api/v1.0/random?min=1&max=3&count=1` → `[n]`.
  func handleRandomNumber(_ request: HTTPRequest) -> HTTPResponse {
    guard ["/api/v1.0/random", "/api/v1.0/randomnumber"].contains(request.url.path) else {
      return Reply.json(404, ["error": "not found"])
    }
    let min = request.queryValue("min").flatMap(Int.init) ?? 0
    let max = request.queryValue("max").flatMap(Int.init) ?? 100
    let count = request.queryValue("count").flatMap(Int.init) ?? 1
    let malformed = ["min", "max", "count"].contains { name in
      request.queryValue(name).map { Int($0) == nil } ?? false
    }
    guard !malformed, min <= max, (1...100).contains(count) else {
      return Reply.json(400, ["error": "Invalid parameters: min ≤ max and 1 ≤ count ≤ 100 are required."])
    }
    return Reply.json(200, (0..<count).map { _ in Int.random(in: min...max, using: &random) })
  }
}

/// Open-Meteo's geocoding search.
enum Geocoder {
  struct Result: Encodable {
    let id: Int
    let name: String
    let latitude: Double
    let longitude: Double
    let elevation: Double
    let feature_code: String
    let country_code: String
    /// Omitted when unknown, as Open-Meteo omits it.
    let admin1_id: Int?
    let timezone: String
    let population: Int
    let country_id: Int
    let country: String
    /// Omitted when unknown (the gazetteer knows only US states' names).
    let admin1: String?
  }

  struct Response: Encodable {
    /// Omitted when empty, as Open-Meteo's proto3 JSON does.
    let results: [Result]?
    let generationtime_ms: Double
  }

  /// `GET /v1/search?name=Richmond&count=10&language=en[&countryCode=US]`.
  static func handle(_ request: HTTPRequest) -> HTTPResponse {
    guard request.url.path == "/v1/search" else { return Reply.json(404, ["error": "Not found"]) }
    let count = request.queryValue("count").map { Int($0) ?? 0 } ?? 10
    guard (1...100).contains(count) else {
      return Reply.text(400, #"{"error":true,"reason":"Parameter count must be between 1 and 100."}"#)
    }
    let name = (request.queryValue("name") ?? "").trimmingCharacters(in: .whitespaces)
    let countryCode = request.queryValue("countryCode")?.uppercased()
    // 0–1 characters: nothing; 2: exact match; 3 or more: prefix match.
    // Against every name a place has (its Korean one too, as Open-Meteo
    // answers names in any language), with case and diacritics folded:
    // "sao paulo" finds São Paulo, "서울" Seoul.
    let query = Gazetteer.folded(name)
    let matches = City.all.filter { city in
      guard name.count >= 2 else { return false }
      if let countryCode, city.countryCode != countryCode { return false }
      return Gazetteer.names(of: city).contains { candidate in
        name.count == 2 ? candidate == query : candidate.hasPrefix(query)
      }
    }
    .sorted { $0.population > $1.population }
    .prefix(count)
    .map {
      Result(
        id: $0.id, name: $0.name, latitude: $0.latitude, longitude: $0.longitude, elevation: $0.elevation,
        feature_code: $0.featureCode, country_code: $0.countryCode, admin1_id: $0.admin1ID == 0 ? nil : $0.admin1ID,
        timezone: $0.timezone, population: $0.population, country_id: $0.countryID, country: $0.country,
        admin1: $0.admin1.isEmpty ? nil : $0.admin1)
    }
    return Reply.json(200, Response(results: matches.isEmpty ? nil : Array(matches), generationtime_ms: 0.5))
  }
}
