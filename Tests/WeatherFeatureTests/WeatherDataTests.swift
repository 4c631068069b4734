import ActorMVVMNetworking
import ActorMVVMNetworkingTesting
import ActorMVVMTesting
import EmbeddedBackend
import Foundation
import Testing
import WeatherFeature

@Suite("Weather: Data layer")
struct WeatherDataTests {
  let backend = EmbeddedBackend()

  @Test("Weatherbit against the embedded backend: Richmond's observation")
  func weatherbit() async throws {
    let service = WeatherbitService(client: backend, apiKey: EmbeddedBackend.demoWeatherbitKey)
    let observation = try await service.currentWeather(latitude: 37.55376, longitude: -77.46026)
    #expect(
      observation
        == WeatherObservation(temperature: 71.6, description: "Broken clouds", iconName: "c03d", day: "2024-05-14"))
  }

  @Test("Weatherbit's request: key, units=I, lat, lon, in that order")
  func request() async throws {
    let stub = HTTPClientStub(json: #"{"count":1,"data":[{"temp":1,"weather":{"icon":"a","description":"b"}}]}"#)
    _ = try await WeatherbitService(client: stub, apiKey: "k3y").currentWeather(latitude: 1.5, longitude: -2)
    let url = try #require(stub.requests.first?.url.absoluteString)
    #expect(url == "https://api.weatherbit.io/v2.0/current?key=k3y&units=I&lat=1.5&lon=-2.0")
    #expect(!(stub.requests.first?.description.contains("k3y") ?? true))
  }

  @Test(
    "Every failure is a typed WeatherError",
    arguments: [
      (HTTPClientStub(error: .transport("connection refused")), WeatherError.failedRequest("connection refused")),
      (HTTPClientStub(error: .invalidResponse), .invalidResponse),
      (HTTPClientStub(json: #"{"error":"x"}"#, status: 500), .status(500)),
      (HTTPClientStub(json: "", status: 200), .noData),
      (HTTPClientStub(json: #"{"count":0,"data":[]}"#), .noData),
    ])
  func failures(stub: HTTPClientStub, expected: WeatherError) async {
    let service = WeatherbitService(client: stub, apiKey: "k")
    await #expect(throws: expected) { try await service.currentWeather(latitude: 0, longitude: 0) }
  }

  @Test("An undecodable body is invalidData")
  func undecodable() async {
    let service = WeatherbitService(client: HTTPClientStub(json: #"{"data": 3}"#), apiKey: "k")
    await #expect {
      try await service.currentWeather(latitude: 0, longitude: 0)
    } throws: { error in
      if case WeatherError.invalidData = error { return true }
      return false
    }
  }

  @Test("A bad key is a 403 status")
  func badKey() async {
    let service = WeatherbitService(client: backend, apiKey: "wrong")
    await #expect(throws: WeatherError.status(403)) { try await service.currentWeather(latitude: 0, longitude: 0) }
  }

  @Test(
    "Geocoding names places as CLGeocoder did",
    arguments: [
      ("Richmond, VA", "Richmond, VA", 37.55376),
      ("Richmond, CA", "Richmond, CA", 37.93576),
      ("richmond, british columbia", "Richmond, British Columbia", 49.16638),
      // The geocoder's name, not the words typed: an unknown region takes the first result, named for it.
      ("richmond, va", "Richmond, VA", 37.55376),
      ("Richmond, XX", "Richmond, VA", 37.55376),
      ("Richmond", "Richmond, VA", 37.55376),
      ("Seoul", "Seoul, South Korea", 37.566),
      ("Anchorage, AK", "Anchorage, AK", 61.21806),
      // From the generated gazetteer (GeoNames): US cities as "City, ST", others with their country.
      ("Chicago", "Chicago, IL", 41.85003),
      ("Springfield, IL", "Springfield, IL", 39.80172),
      ("Lagos", "Lagos, Nigeria", 6.45407),
      ("São Paulo", "São Paulo, Brazil", -23.5475),
    ])
  func geocoding(input: String, name: String, latitude: Double) async throws {
    let first = try #require(try await OpenMeteoGeocoder(client: backend).locations(matching: input).first)
    #expect(first.name == name)
    #expect(first.latitude == latitude)
  }

  @Test("The offline gazetteer: over a thousand places, hundreds of US cities among them, each found by name")
  func gazetteer() async throws {
    let rows = gazetteerSample()
    #expect(rows.count >= 1_000)
    #expect(rows.filter { $0.countryCode == "US" }.count >= 300)
    let geocoder = OpenMeteoGeocoder(client: backend)
    // (GeoNames' "New York City" is also a hand-written place, named "New York" there, which takes precedence.)
    for row in rows.filter({ $0.countryCode == "US" && $0.name != "New York City" }).prefix(40) {
      let found = try await geocoder.locations(matching: "\(row.name), \(row.state)")
      #expect(found.contains { $0.name == "\(row.name), \(row.state)" }, "\(row.name), \(row.state)")
    }
  }

  @Test("No match, or too short a name, is an empty list")
  func notFound() async throws {
    let geocoder = OpenMeteoGeocoder(client: backend)
    #expect(try await geocoder.locations(matching: "Atlantis").isEmpty)
    #expect(try await geocoder.locations(matching: "X").isEmpty)
  }
}

/// The generated gazetteer's rows (name, admin1 code, country code), read
/// from the source file as a user of the data would.
func gazetteerSample() -> [(name: String, state: String, countryCode: String)] {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Sources/EmbeddedBackend/Gazetteer.swift")
  let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  return text.split(separator: "\n").compactMap { line in
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == 11 else { return nil }
    return (String(fields[1]), String(fields[3]), String(fields[4]))
  }
}
