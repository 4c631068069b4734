import ActorMVVMNetworking
import Foundation

/// Open-Meteo's geocoding search behind ``GeocodingUseCase``: the Linux
/// stand-in for `CLGeocoder`.
///
/// "Richmond, VA" → query `name=Richmond` (plus `countryCode=US` for a US
/// state code), pick the result in Virginia, and name it from the result,
/// as CLGeocoder's `"\(locality), \(administrativeArea)"` did: US places
/// by their state code ("Richmond, VA", whether typed `richmond, va` or
/// `Richmond, XX`, which matches no state and takes the first result),
/// others by their first-level area or country ("Seoul, South Korea").
///
/// A `Sendable` struct holding only constants: calls run concurrently, in
/// the caller's task, with no actor hop; what has state (the `HTTPClient`
/// actor, the session) guards it itself.
public struct OpenMeteoGeocoder: Sendable, GeocodingUseCase {
  private let client: any HTTPClient
  private let host: String

  public init(client: any HTTPClient, host: String = "geocoding-api.open-meteo.com") {
    self.client = client
    self.host = host
  }

  struct Search: Decodable {
    struct Result: Decodable {
      let name: String
      let latitude: Double
      let longitude: Double
      let country_code: String?
      let country: String?
      let admin1: String?
    }
    /// Missing when nothing matched.
    let results: [Result]?
  }

  public func locations(matching address: String) async throws(WeatherError) -> [Location] {
    let parts = address.split(separator: ",", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
    guard let city = parts.first, city.count >= 2 else { return [] }
    let region = parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil
    let stateName = region.flatMap { USStates.name(forCode: $0) }
    var query = [("name", city), ("count", "10"), ("language", "en")]
    if stateName != nil { query.append(("countryCode", "US")) }
    let (client, host) = (self.client, self.host)
    let search = try await HTTPError.mapping(WeatherError.init) { () async throws(HTTPError) in
      try await client.send(try HTTPRequest(host: host, path: "/v1/search", query: query)).decode(Search.self)
    }
    let results = search.results ?? []
    let preferred = results.filter { result in
      guard let region else { return true }
      let wanted = stateName ?? region
      return [result.admin1, result.country, result.country_code].contains {
        $0?.caseInsensitiveCompare(wanted) == .orderedSame
      }
    }
    return (preferred.isEmpty ? results : preferred).map { result in
      let label =
        (result.country_code == "US"
          ? result.admin1.flatMap(USStates.code(forName:)) : (result.admin1 == result.name ? nil : result.admin1))
        ?? result.country ?? ""
      return Location(
        name: label.isEmpty ? result.name : "\(result.name), \(label)", latitude: result.latitude,
        longitude: result.longitude)
    }
  }
}

/// US state codes and names, for "Richmond, VA" ↔ admin1 "Virginia".
enum USStates {
  static let byCode: [String: String] = [
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
    "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia", "FL": "Florida", "GA": "Georgia",
    "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
    "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan",
    "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
    "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming",
  ]

  static func name(forCode code: String) -> String? { byCode[code.uppercased()] }

  static func code(forName name: String) -> String? {
    byCode.first { $0.value.caseInsensitiveCompare(name) == .orderedSame }?.key
  }
}
