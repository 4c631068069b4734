import Foundation

// Decodable models shaped like the real APIs (../shared/fixtures/README.md).
// Each is checked against the reference fixtures *and* the embedded backend,
// so the backend provably speaks the real wire formats.

struct WeatherbitCurrent: Decodable {
  struct Observation: Decodable {
    struct Weather: Decodable {
      let icon: String
      let code: Int
      let description: String
    }
    let city_name: String
    let state_code: String
    let country_code: String
    let timezone: String
    let lat: Double
    let lon: Double
    let temp: Double
    let app_temp: Double
    let datetime: String
    let ob_time: String
    let ts: Double
    let pod: String
    let weather: Weather
  }
  let count: Int
  let data: [Observation]
}

struct WeatherbitError: Decodable { let error: String }

struct WeatherbitRateLimit: Decodable {
  let status_code: Int
  let status_message: String
}

struct OpenMeteoSearch: Decodable {
  struct Result: Decodable {
    let id: Int
    let name: String
    let latitude: Double
    let longitude: Double
    let country_code: String
    let country: String
    let admin1: String?
    let timezone: String
  }
  let results: [Result]?
  let generationtime_ms: Double
}

struct NaverDirections: Decodable {
  struct Route: Decodable {
    struct Summary: Decodable {
      struct Place: Decodable { let location: [Double] }
      let start: Place
      let goal: Place
      let distance: Int
      let duration: Int
      let bbox: [[Double]]
      let tollFare: Int
      let taxiFare: Int
      let fuelPrice: Int
    }
    struct Section: Decodable {
      let pointIndex: Int
      let pointCount: Int
      let distance: Int
      let name: String
      let congestion: Int
      let speed: Int
    }
    struct Guide: Decodable {
      let pointIndex: Int
      let type: Int
      let instructions: String
      let distance: Int
      let duration: Int
    }
    let summary: Summary
    let path: [[Double]]
    let section: [Section]
    let guide: [Guide]
  }
  let code: Int
  let message: String
  let currentDateTime: String?
  let route: [String: [Route]]?
}

func fixture(_ name: String) throws -> Data {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  return try Data(contentsOf: root.appendingPathComponent("Fixtures/\(name).json"))
}
