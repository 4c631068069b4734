import ActorMVVMNetworking
import ActorMVVMTesting
import Foundation
import Testing

@testable import EmbeddedBackend

@Suite("Embedded backend: wire formats")
struct EmbeddedBackendFormatTests {
  let backend = EmbeddedBackend()

  func get(_ host: String, _ path: String, _ query: [(String, String)] = [], headers: [(String, String)] = [])
    async throws -> HTTPResponse
  {
    let request = try HTTPRequest(
      host: host, path: path, query: query.map { (name: $0.0, value: $0.1) },
      headers: headers.map { (name: $0.0, value: $0.1) })
    return try await backend.send(request)
  }

  func weather(_ query: [(String, String)]) async throws -> HTTPResponse {
    try await get("api.weatherbit.io", "/v2.0/current", query)
  }

  @Test("The fixtures decode with the wire models")
  func fixturesDecode() throws {
    let decoder = JSONDecoder()
    let richmond = try decoder.decode(WeatherbitCurrent.self, from: fixture("weatherbit-current-richmond"))
    #expect(richmond.data[0].temp == 71.6)
    _ = try decoder.decode(WeatherbitCurrent.self, from: fixture("weatherbit-current-seoul"))
    _ = try decoder.decode(WeatherbitError.self, from: fixture("weatherbit-error-403"))
    _ = try decoder.decode(WeatherbitRateLimit.self, from: fixture("weatherbit-error-429"))
    #expect(try decoder.decode(OpenMeteoSearch.self, from: fixture("geocode-richmond")).results?.count == 1)
    #expect(try decoder.decode(OpenMeteoSearch.self, from: fixture("geocode-empty")).results == nil)
    let route = try decoder.decode(NaverDirections.self, from: fixture("naver-directions-ok"))
    #expect(route.route?["trafast"]?.first?.summary.distance == 1_487)
    #expect(try decoder.decode(NaverDirections.self, from: fixture("naver-directions-same-points")).code == 1)
    #expect(try decoder.decode([Int].self, from: fixture("randomnumber-2")) == [2])
  }

  @Test("Weatherbit: Richmond in °F, as the fixture reads")
  func weatherbitImperial() async throws {
    let response = try await weather([
      ("key", EmbeddedBackend.demoWeatherbitKey), ("units", "I"), ("lat", "37.55376"), ("lon", "-77.46026"),
    ])
    let current = try response.decode(WeatherbitCurrent.self)
    let reference = try JSONDecoder().decode(WeatherbitCurrent.self, from: fixture("weatherbit-current-richmond"))
    #expect(current.count == 1)
    #expect(current.data[0].city_name == reference.data[0].city_name)
    #expect(current.data[0].state_code == "VA")
    #expect(current.data[0].temp == reference.data[0].temp)
    #expect(current.data[0].weather.description == reference.data[0].weather.description)
    #expect(current.data[0].weather.icon == reference.data[0].weather.icon)
    #expect(current.data[0].datetime.count == "2024-05-14:18".count)
  }

  @Test("Weatherbit: metric units convert")
  func weatherbitMetric() async throws {
    let response = try await weather([
      ("key", EmbeddedBackend.demoWeatherbitKey), ("units", "M"), ("lat", "37.566"), ("lon", "126.9784"),
    ])
    let seoul = try response.decode(WeatherbitCurrent.self).data[0]
    #expect(seoul.city_name == "Seoul")
    #expect(seoul.temp == 24.0)  // 75.2 °F
  }

  @Test("Weatherbit: a bad or missing key is a 403 in Weatherbit's error shape")
  func weatherbitKeys() async throws {
    for key in ["", "wrong"] {
      let response = try await weather([("key", key), ("lat", "1"), ("lon", "1")])
      #expect(response.status == 403)
      let error = try JSONDecoder().decode(WeatherbitError.self, from: response.body)
      #expect(error.error.hasPrefix(key.isEmpty ? "API key is required" : "API key not valid"))
    }
  }

  @Test("Open-Meteo: several Richmonds, largest first; admin1 is the full state name")
  func geocoder() async throws {
    let response = try await get(
      "geocoding-api.open-meteo.com", "/v1/search", [("name", "Richmond"), ("count", "10"), ("language", "en")])
    let results = try response.decode(OpenMeteoSearch.self).results ?? []
    #expect(results.map(\.admin1) == ["Virginia", "British Columbia", "California", "New York"])
    let seoul = try await get("geocoding-api.open-meteo.com", "/v1/search", [("name", "Seoul"), ("count", "1")])
    #expect(try seoul.decode(OpenMeteoSearch.self).results?.first?.country_code == "KR")
  }

  @Test("Open-Meteo: Korean names find their places; case and diacritics are folded")
  func geocoderNamesInKoreanAndWithoutAccents() async throws {
    func first(_ name: String) async throws -> String? {
      let response = try await get("geocoding-api.open-meteo.com", "/v1/search", [("name", name), ("count", "1")])
      return try response.decode(OpenMeteoSearch.self).results?.first?.name
    }
    #expect(try await first("서울") == "Seoul")
    #expect(try await first("부산") == "Busan")
    #expect(try await first("인천") == "Incheon")
    #expect(try await first("도쿄") == "Tokyo")
    #expect(try await first("Sao Paulo") == "São Paulo")
    #expect(try await first("SÃO PAULO") == "São Paulo")
    #expect(try await first("bogota") == "Bogotá")
    #expect(try await first("seoul") == "Seoul")
  }

  @Test("Open-Meteo: no match → no results key; a bad count → 400 with a reason")
  func geocoderEdges() async throws {
    let none = try await get("geocoding-api.open-meteo.com", "/v1/search", [("name", "Atlantis")])
    #expect(String(decoding: none.body, as: UTF8.self).contains("results") == false)
    #expect(try none.decode(OpenMeteoSearch.self).results == nil)
    let bad = try await get("geocoding-api.open-meteo.com", "/v1/search", [("name", "Seoul"), ("count", "0")])
    #expect(bad.status == 400)
    #expect(String(decoding: bad.body, as: UTF8.self).contains("Parameter count must be between 1 and 100."))
  }

  @Test("randomnumberapi: [n] within [min, max], deterministic for a seed; bad parameters → 400")
  func randomNumber() async throws {
    func draw(_ backend: EmbeddedBackend) async throws -> [Int] {
      var values: [Int] = []
      for _ in 0..<20 {
        let request = try HTTPRequest(
          host: "www.randomnumberapi.com", path: "/api/v1.0/random",
          query: [("min", "1"), ("max", "3"), ("count", "1")])
        values += try await backend.send(request).decode([Int].self)
      }
      return values
    }
    let first = try await draw(EmbeddedBackend(.init(seed: 7)))
    #expect(first.allSatisfy { (1...3).contains($0) })
    #expect(try await draw(EmbeddedBackend(.init(seed: 7))) == first)
    #expect(try await draw(EmbeddedBackend(.init(seed: 8))) != first)
    for query in [[("min", "5"), ("max", "1")], [("min", "x")], [("count", "0")]] {
      let bad = try await get("www.randomnumberapi.com", "/api/v1.0/random", query)
      #expect(bad.status == 400)
    }
  }

  var naverKeys: [(String, String)] {
    [
      ("X-NCP-APIGW-API-KEY-ID", EmbeddedBackend.demoNaverClientID),
      ("X-NCP-APIGW-API-KEY", EmbeddedBackend.demoNaverClientSecret),
    ]
  }

  func directions(_ start: String, _ goal: String, extra: [(String, String)] = [], headers: [(String, String)]? = nil)
    async throws -> HTTPResponse
  {
    try await get(
      "naveropenapi.apigw.ntruss.com", "/map-direction/v1/driving",
      [("start", start), ("goal", goal), ("option", "trafast")] + extra, headers: headers ?? naverKeys)
  }

  @Test("Naver: a route whose guide adds up to its summary")
  func naverRoute() async throws {
    let response = try await directions("126.9706,37.5547", "126.978,37.5665")
    let body = try response.decode(NaverDirections.self)
    #expect(body.code == 0)
    let route = try #require(body.route?["trafast"]?.first)
    #expect(route.summary.distance == route.guide.reduce(0) { $0 + $1.distance })
    #expect(route.summary.duration == route.guide.reduce(0) { $0 + $1.duration })
    #expect(route.guide.last?.type == 88)
    #expect(route.path.first == [126.9706, 37.5547])
    #expect(route.path.last == [126.978, 37.5665])
    #expect(route.summary.bbox[0][0] <= route.summary.bbox[1][0])
    #expect(route.summary.taxiFare >= 4_800)
  }

  @Test("Naver: codes 1–5 as HTTP 200 bodies with the API's messages")
  func naverCodes() async throws {
    let same = try await directions("126.978,37.5665", "126.978,37.5665").decode(NaverDirections.self)
    let reference = try JSONDecoder().decode(NaverDirections.self, from: fixture("naver-directions-same-points"))
    #expect(same.code == 1 && same.message == reference.message && same.route == nil && same.currentDateTime == nil)
    #expect(try await directions("0,0", "126.978,37.5665").decode(NaverDirections.self).code == 2)
    #expect(try await directions("126.53,33.49", "126.978,37.5665").decode(NaverDirections.self).code == 3)
    let waypoint = try await directions("126.97,37.55", "126.978,37.5665", extra: [("waypoints", "0,0")])
    #expect(try waypoint.decode(NaverDirections.self).code == 4)
    let far = try await directions(
      "126.1,34.4", "129.5,38.5", extra: [("waypoints", "129.5,34.4|126.1,38.5|129.5,34.5|126.1,38.4|129.4,34.4")])
    #expect(try far.decode(NaverDirections.self).code == 5)
  }

  @Test("Naver: missing keys → 401 gateway error")
  func naverUnauthorized() async throws {
    let response = try await directions("126.97,37.55", "126.978,37.5665", headers: [])
    #expect(response.status == 401)
    #expect(String(decoding: response.body, as: UTF8.self).contains("Authentication Failed"))
  }

  @Test("An unknown host fails like DNS")
  func unknownHost() async throws {
    await #expect(throws: HTTPError.transport("host not found")) {
      try await get("example.org", "/")
    }
  }
}

@Suite("Embedded backend: faults and time", .testBubble)
struct EmbeddedBackendFaultTests {
  let weatherRequest = try! HTTPRequest(
    host: "api.weatherbit.io", path: "/v2.0/current",
    query: [("key", EmbeddedBackend.demoWeatherbitKey), ("lat", "37.5"), ("lon", "-77.4")],
    timeout: .seconds(10))

  @Test("Each injected fault surfaces as its typed error, then the route recovers")
  func faults() async throws {
    let backend = EmbeddedBackend()
    await backend.inject(.status(500, body: #"{"error":"boom"}"#), on: .weather)
    await backend.inject(.malformedBody, on: .weather)
    await backend.inject(.emptyBody, on: .weather)
    await backend.inject(.transport("connection reset"), on: .weather)
    await #expect(throws: HTTPError.status(code: 500, body: #"{"error":"boom"}"#, retryAfter: nil)) {
      try await backend.send(weatherRequest).decode(WeatherbitCurrent.self)
    }
    await #expect {
      try await backend.send(weatherRequest).decode(WeatherbitCurrent.self)
    } throws: { error in
      if case HTTPError.undecodable(_, _, "malformed JSON") = error { return true }
      return false
    }
    await #expect(throws: HTTPError.emptyBody) {
      try await backend.send(weatherRequest).decode(WeatherbitCurrent.self)
    }
    await #expect(throws: HTTPError.transport("connection reset")) { try await backend.send(weatherRequest) }
    #expect(try await backend.send(weatherRequest).decode(WeatherbitCurrent.self).count == 1)
    #expect(await backend.requestCount(.weather) == 5)
  }

  @Test("Latency and delays run on the injected clock; a delay past the timeout times out")
  func latencyAndTimeout() async throws {
    let clock = TestClock()
    let backend = EmbeddedBackend(.init(latency: .milliseconds(200), clock: clock))
    let request = weatherRequest
    let answer = TestBubble.task { try await backend.send(request) }
    await clock.waitForSleepers(1)
    await clock.advance(by: .milliseconds(200))
    #expect(try await answer.value.status == 200)

    await backend.inject(.delay(.seconds(30)), on: .weather)
    let slow = TestBubble.task { try await backend.send(request) }
    await clock.waitForSleepers(1)
    await clock.advance(by: .seconds(10))  // the request's timeout
    await #expect(throws: HTTPError.timedOut) { try await slow.value }
  }

  @Test("Cancelling a request during latency → cancelled")
  func cancellation() async throws {
    let clock = TestClock()
    let backend = EmbeddedBackend(.init(latency: .seconds(1), clock: clock))
    let request = weatherRequest
    let task = TestBubble.task { try await backend.send(request) }
    await clock.waitForSleepers(1)
    task.cancel()
    await #expect(throws: HTTPError.cancelled) { try await task.value }
  }
}
