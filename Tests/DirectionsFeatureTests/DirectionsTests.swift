import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMNetworkingTesting
import ActorMVVMTesting
import DirectionsFeature
import EmbeddedBackend
import Testing

let seoulStation = Coordinate(latitude: 37.5547, longitude: 126.9706)
let cityHall = Coordinate(latitude: 37.5665, longitude: 126.978)
let jeju = Coordinate(latitude: 33.49, longitude: 126.53)
let demoCredentials = NaverDirectionsClient.Credentials(
  clientID: EmbeddedBackend.demoNaverClientID, clientSecret: EmbeddedBackend.demoNaverClientSecret)

@Suite("Directions: Data layer")
struct DirectionsDataTests {
  let client = NaverDirectionsClient(client: EmbeddedBackend(), credentials: demoCredentials)

  @Test("A route from Seoul Station to City Hall: path from start to goal, guide adding up")
  func route() async throws {
    let route = try await client.route(NavigationData(start: seoulStation, goal: cityHall))
    #expect(route.path.first == seoulStation)
    #expect(route.path.last == cityHall)
    #expect(route.summary.distanceMetres == route.guide.reduce(0) { $0 + $1.distanceMetres })
    #expect(route.guide.last?.instructions == "목적지")
  }

  @Test("The request: lng,lat order, option trafast, both key headers (redacted in descriptions)")
  func request() async throws {
    let stub = HTTPClientStub(json: #"{"code":1,"message":"same"}"#)
    let client = NaverDirectionsClient(
      client: stub, credentials: .init(clientID: "id-123", clientSecret: "secret-456"))
    _ = try? await client.route(NavigationData(start: seoulStation, goal: cityHall))
    let request = try #require(stub.requests.first)
    #expect(request.queryValue("start") == "126.9706,37.5547")
    #expect(request.queryValue("goal") == "126.978,37.5665")
    #expect(request.queryValue("option") == "trafast")
    #expect(request.header("X-NCP-APIGW-API-KEY-ID") == "id-123")
    #expect(request.header("X-NCP-APIGW-API-KEY") == "secret-456")
    #expect(!Redaction.redact(headers: request.headers).contains { $0.value.contains("secret-456") })
  }

  @Test("API codes map to typed errors carrying the API's message")
  func codes() async {
    await #expect(throws: DirectionsError.sameStartAndGoal("출발지와 도착지가 동일합니다. 확인 후 다시 지정해주세요.")) {
      try await client.route(NavigationData(start: cityHall, goal: cityHall))
    }
    await #expect(throws: DirectionsError.noCarRoute("자동차 길찾기 결과를 제공할 수 없습니다.")) {
      try await client.route(NavigationData(start: jeju, goal: cityHall))
    }
    await #expect {
      try await client.route(NavigationData(start: Coordinate(latitude: 0, longitude: 0), goal: cityHall))
    } throws: { error in
      if case DirectionsError.notNearRoad = error { return true }
      return false
    }
  }

  @Test("Wrong keys → unauthorized with the gateway's message")
  func unauthorized() async {
    let client = NaverDirectionsClient(client: EmbeddedBackend(), credentials: .init(clientID: "x", clientSecret: "y"))
    await #expect(throws: DirectionsError.unauthorized("Authentication Failed")) {
      try await client.route(NavigationData(start: seoulStation, goal: cityHall))
    }
  }

  @Test("Transport failures and bad bodies are typed")
  func failures() async {
    let offline = NaverDirectionsClient(client: HTTPClientStub(error: .timedOut), credentials: demoCredentials)
    await #expect(throws: DirectionsError.failedRequest("timed out")) {
      try await offline.route(NavigationData(start: seoulStation, goal: cityHall))
    }
    let garbage = NaverDirectionsClient(client: HTTPClientStub(json: "<html>"), credentials: demoCredentials)
    await #expect {
      try await garbage.route(NavigationData(start: seoulStation, goal: cityHall))
    } throws: { error in
      if case DirectionsError.invalidData = error { return true }
      return false
    }
  }
}

/// A directions service the test answers, gate by gate.
struct GatedDirections: DirectionsService {
  let gate: TestGate
  let route: DrivingRoute
  func route(_ navigation: NavigationData) async throws(DirectionsError) -> DrivingRoute {
    await gate.wait()
    return route
  }
}

@Suite("Directions: the screen", .testBubble)
struct DirectionsMachineTests {
  static let route = DrivingRoute(
    summary: RouteSummary(distanceMetres: 10, duration: .seconds(2), tollFare: 0, taxiFare: 4_800, fuelPrice: 1),
    path: [seoulStation, cityHall],
    guide: [GuideStep(instructions: "목적지", distanceMetres: 10, duration: .seconds(2), type: 88)])

  func tester(_ service: any DirectionsService) -> FeatureTester<DirectionsMachine> {
    FeatureTester(DirectionsMachine(service: service), initialState: .init())
  }

  @Test("First tap sets the start, second the goal, later taps move the goal; reset clears both")
  func markers() async {
    let tester = tester(GatedDirections(gate: TestGate(), route: Self.route))
    await tester.send(.locationUpdated(seoulStation)) { $0.currentLocation = seoulStation }
    await tester.send(.mapTapped(seoulStation)) { $0.start = seoulStation }
    await tester.send(.mapTapped(jeju)) { $0.goal = jeju }
    await tester.send(.mapTapped(cityHall)) { $0.goal = cityHall }
    #expect(await tester.state.markers == [seoulStation, cityHall])
    await tester.send(.resetMarkersTapped) {
      $0.start = nil
      $0.goal = nil
    }
    await tester.finish()
  }

  @Test("Draw path with fewer than two markers: a clear error and no request")
  func needsTwoMarkers() async {
    let stub = HTTPClientStub(json: "{}")
    let tester = tester(NaverDirectionsClient(client: stub, credentials: demoCredentials))
    await tester.send(.drawPathTapped) { $0.error = .needsStartAndGoal }
    await tester.send(.mapTapped(seoulStation)) {
      $0.start = seoulStation
      $0.error = nil
    }
    await tester.send(.drawPathTapped) { $0.error = .needsStartAndGoal }
    await tester.finish()
    #expect(stub.requests.isEmpty)
  }

  @Test("Draw path → the route, its summary and the detail list")
  func drawPath() async {
    let gate = TestGate()
    gate.open()
    let tester = tester(GatedDirections(gate: gate, route: Self.route))
    await tester.send(.mapTapped(seoulStation)) { $0.start = seoulStation }
    await tester.send(.mapTapped(cityHall)) { $0.goal = cityHall }
    await tester.send(.drawPathTapped) { $0.isLoading = true }
    await tester.receive(.routeLoaded(Self.route)) {
      $0.path = Self.route.path
      $0.summary = Self.route.summary
      $0.guide = Self.route.guide
      $0.isLoading = false
    }
    await tester.send(.detailTapped) { $0.isDetailShown = true }
    await tester.send(.detailClosed) { $0.isDetailShown = false }
    await tester.finish()
  }

  @Test("isLoading: true from the request until its route lands; a moved marker cancels it and clears it")
  func loading() async {
    let gate = TestGate()
    let tester = tester(GatedDirections(gate: gate, route: Self.route))
    await tester.send(.mapTapped(seoulStation)) { $0.start = seoulStation }
    await tester.send(.mapTapped(cityHall)) { $0.goal = cityHall }
    await tester.send(.drawPathTapped) { $0.isLoading = true }
    await tester.send(.mapTapped(jeju)) {
      $0.goal = jeju
      $0.isLoading = false
    }
    await tester.send(.drawPathTapped) { $0.isLoading = true }
    gate.open()
    await tester.receive(.routeLoaded(Self.route)) {
      $0.path = Self.route.path
      $0.summary = Self.route.summary
      $0.guide = Self.route.guide
      $0.isLoading = false
    }
    await tester.finish()
  }

  @Test("A new draw supersedes the one in flight; moving a marker cancels it")
  func supersede() async {
    let first = TestGate()
    let feature = Feature(
      DirectionsMachine(service: GatedDirections(gate: first, route: Self.route)),
      initialState: .init(), counters: LifetimeCounters())
    feature.send(.mapTapped(seoulStation))
    feature.send(.mapTapped(cityHall))
    feature.send(.drawPathTapped)
    await feature.flush()
    feature.send(.mapTapped(jeju))  // the goal moved: the answer in flight no longer matches
    await feature.flush()
    first.open()
    await feature.idle()
    let state = await feature.state
    #expect(state.goal == jeju)
    #expect(state.path.isEmpty && state.summary == nil)
    await feature.finish()
  }
}
