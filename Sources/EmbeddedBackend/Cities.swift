import Foundation

/// The embedded world: the places the geocoder knows and the weather
/// Weatherbit reports near them. Coordinates and codes are real; the
/// weather is made up, deterministic for a seed. A dozen places are written
/// out here (every seed's city, with elevation and weather chosen by hand);
/// the 2,000 of the gazetteer (`Gazetteer.swift`, generated from GeoNames by
/// `Scripts/gazetteer.py`) follow, with weather derived from their latitude.
struct City: Sendable {
  let id: Int
  let name: String
  let admin1: String
  let admin1ID: Int
  /// Weatherbit's `state_code`: a US state abbreviation, elsewhere a number.
  let stateCode: String
  let countryCode: String
  let country: String
  let countryID: Int
  let latitude: Double
  let longitude: Double
  let elevation: Double
  let featureCode: String
  let timezone: String
  let population: Int
  /// Weather at seed 0: °F, description, icon, code.
  let temperatureF: Double
  let weather: (description: String, icon: String, code: Int)

  /// Every place: the hand-written ones, then the gazetteer's others.
  static let all: [City] = {
    let known = Set(handWritten.map(\.id))
    return handWritten + gazetteer.filter { !known.contains($0.id) }
  }()

  /// The gazetteer's places, parsed from ``gazetteerRows``.
  static var gazetteer: [City] {
    gazetteerRows.split(separator: "\n").compactMap { row in
      let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 11, let id = Int(fields[0]), let countryID = Int(fields[6]),
        let latitude = Double(fields[7]), let longitude = Double(fields[8]), let population = Int(fields[9])
      else { return nil }
      return City(
        id: id, name: fields[1], admin1: fields[2], admin1ID: 0, stateCode: fields[3], countryCode: fields[4],
        country: fields[5], countryID: countryID, latitude: latitude, longitude: longitude, elevation: 0,
        featureCode: "PPL", timezone: fields[10], population: population,
        temperatureF: (90 - abs(latitude) * 0.7).rounded(), weather: derivedWeather[id % derivedWeather.count])
    }
  }

  /// Made-up skies for the gazetteer's places, picked by id.
  static let derivedWeather: [(description: String, icon: String, code: Int)] = [
    ("Clear sky", "c01d", 800), ("Few clouds", "c02d", 801), ("Scattered clouds", "c02d", 802),
    ("Broken clouds", "c03d", 803), ("Overcast clouds", "c04d", 804), ("Light rain", "r01d", 500),
  ]

  static let handWritten: [City] = [
    City(
      id: 4_781_708, name: "Richmond", admin1: "Virginia", admin1ID: 6_254_928, stateCode: "VA", countryCode: "US",
      country: "United States", countryID: 6_252_001, latitude: 37.55376, longitude: -77.46026, elevation: 64,
      featureCode: "PPLA", timezone: "America/New_York", population: 220_289, temperatureF: 71.6,
      weather: ("Broken clouds", "c03d", 803)),
    City(
      id: 5_387_428, name: "Richmond", admin1: "California", admin1ID: 5_332_921, stateCode: "CA", countryCode: "US",
      country: "United States", countryID: 6_252_001, latitude: 37.93576, longitude: -122.34775, elevation: 14,
      featureCode: "PPL", timezone: "America/Los_Angeles", population: 110_567, temperatureF: 63.1,
      weather: ("Clear sky", "c01d", 800)),
    City(
      id: 6_122_085, name: "Richmond", admin1: "British Columbia", admin1ID: 5_909_050, stateCode: "02",
      countryCode: "CA", country: "Canada", countryID: 6_251_999, latitude: 49.16638, longitude: -123.13569,
      elevation: 4, featureCode: "PPL", timezone: "America/Vancouver", population: 198_309, temperatureF: 55.4,
      weather: ("Light rain", "r01d", 500)),
    City(
      id: 1_835_848, name: "Seoul", admin1: "Seoul", admin1ID: 1_835_847, stateCode: "11", countryCode: "KR",
      country: "South Korea", countryID: 1_835_841, latitude: 37.566, longitude: 126.9784, elevation: 38,
      featureCode: "PPLC", timezone: "Asia/Seoul", population: 10_349_312, temperatureF: 75.2,
      weather: ("Few clouds", "c02d", 801)),
    City(
      id: 1_838_524, name: "Busan", admin1: "Busan", admin1ID: 1_838_519, stateCode: "10", countryCode: "KR",
      country: "South Korea", countryID: 1_835_841, latitude: 35.10168, longitude: 129.03004, elevation: 10,
      featureCode: "PPLA", timezone: "Asia/Seoul", population: 3_678_555, temperatureF: 73.9,
      weather: ("Scattered clouds", "c02d", 802)),
    City(
      id: 5_879_400, name: "Anchorage", admin1: "Alaska", admin1ID: 5_879_092, stateCode: "AK", countryCode: "US",
      country: "United States", countryID: 6_252_001, latitude: 61.21806, longitude: -149.90028, elevation: 31,
      featureCode: "PPLA2", timezone: "America/Anchorage", population: 291_247, temperatureF: 48.2,
      weather: ("Overcast clouds", "c04d", 804)),
    City(
      id: 4_771_630, name: "McGaheysville", admin1: "Virginia", admin1ID: 6_254_928, stateCode: "VA",
      countryCode: "US", country: "United States", countryID: 6_252_001, latitude: 38.37124, longitude: -78.74336,
      elevation: 354, featureCode: "PPL", timezone: "America/New_York", population: 865, temperatureF: 66.7,
      weather: ("Few clouds", "c02d", 801)),
    City(
      id: 4_487_042, name: "Raleigh", admin1: "North Carolina", admin1ID: 4_482_348, stateCode: "NC",
      countryCode: "US", country: "United States", countryID: 6_252_001, latitude: 35.7721, longitude: -78.63861,
      elevation: 96, featureCode: "PPLA", timezone: "America/New_York", population: 467_665, temperatureF: 75.6,
      weather: ("Broken clouds", "c03d", 803)),
    City(
      id: 5_128_581, name: "New York", admin1: "New York", admin1ID: 5_128_638, stateCode: "NY", countryCode: "US",
      country: "United States", countryID: 6_252_001, latitude: 40.71427, longitude: -74.00597, elevation: 10,
      featureCode: "PPL", timezone: "America/New_York", population: 8_804_190, temperatureF: 68.0,
      weather: ("Haze", "h05d", 721)),
    City(
      id: 2_643_743, name: "London", admin1: "England", admin1ID: 6_269_131, stateCode: "ENG", countryCode: "GB",
      country: "United Kingdom", countryID: 2_635_167, latitude: 51.50853, longitude: -0.12574, elevation: 25,
      featureCode: "PPLC", timezone: "Europe/London", population: 8_961_989, temperatureF: 59.0,
      weather: ("Light drizzle", "d01d", 300)),
    City(
      id: 1_850_147, name: "Tokyo", admin1: "Tokyo", admin1ID: 1_850_144, stateCode: "40", countryCode: "JP",
      country: "Japan", countryID: 1_861_060, latitude: 35.6895, longitude: 139.69171, elevation: 44,
      featureCode: "PPLC", timezone: "Asia/Tokyo", population: 9_733_276, temperatureF: 77.0,
      weather: ("Clear sky", "c01d", 800)),
    City(
      id: 2_988_507, name: "Paris", admin1: "Île-de-France", admin1ID: 3_012_874, stateCode: "11", countryCode: "FR",
      country: "France", countryID: 3_017_382, latitude: 48.85341, longitude: 2.3488, elevation: 42,
      featureCode: "PPLC", timezone: "Europe/Paris", population: 2_138_551, temperatureF: 64.4,
      weather: ("Few clouds", "c02d", 801)),
  ]

  /// The city nearest to a coordinate.
  static func nearest(latitude: Double, longitude: Double) -> City {
    all.min {
      distanceMetres(latitude, longitude, $0.latitude, $0.longitude)
        < distanceMetres(latitude, longitude, $1.latitude, $1.longitude)
    }!
  }
}

/// Great-circle distance in metres (haversine).
func distanceMetres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
  let radius = 6_371_000.0
  let dLat = (lat2 - lat1) * .pi / 180
  let dLon = (lon2 - lon1) * .pi / 180
  let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * .pi / 180) * cos(lat2 * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
  return 2 * radius * asin(min(1, sqrt(a)))
}
