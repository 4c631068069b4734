import ActorMVVMNetworking
import Foundation

/// Naver Directions 5 (driving), as its API spells it: metres and milliseconds.
struct NaverDirections: Encodable {
  struct Location: Encodable {
    let location: [Double]
    let dir: Int?
  }
  struct Summary: Encodable {
    let start: Location
    let goal: Location
    let distance: Int
    let duration: Int
    let departureTime: String
    let bbox: [[Double]]
    let tollFare: Int
    let taxiFare: Int
    let fuelPrice: Int
  }
  struct Section: Encodable {
    let pointIndex: Int
    let pointCount: Int
    let distance: Int
    let name: String
    let congestion: Int
    let speed: Int
  }
  struct Guide: Encodable {
    let pointIndex: Int
    let type: Int
    let instructions: String
    let distance: Int
    let duration: Int
  }
  struct Route: Encodable {
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

extension EmbeddedBackend {
  static let directionsMessages = [
    0: "길찾기를 성공하였습니다.",
    1: "출발지와 도착지가 동일합니다. 확인 후 다시 지정해주세요.",
    2: "출발지 또는 도착지가 도로 주변이 아닙니다. 위치를 변경해 주세요.",
    3: "자동차 길찾기 결과를 제공할 수 없습니다.",
    4: "경유지가 도로 주변이 아닙니다. 위치를 변경해 주세요.",
    5: "요청 경로가 매우 깁니다. 경유지를 포함한 직선거리의 합이 1500km 이상인 경우입니다.",
  ]

  /// `GET /map-direction/v1/driving?start=lng,lat&goal=lng,lat&option=trafast`
  /// with the two `X-NCP-APIGW-API-KEY…` headers.
  func handleDirections(_ request: HTTPRequest) -> HTTPResponse {
    guard request.url.path == "/map-direction/v1/driving" else {
      return Reply.text(404, #"{"error":{"errorCode":"300","message":"Not Found Exception"}}"#)
    }
    guard request.header("X-NCP-APIGW-API-KEY-ID") == configuration.naverClientID,
      request.header("X-NCP-APIGW-API-KEY") == configuration.naverClientSecret
    else {
      return Reply.text(
        401,
        #"{"error":{"errorCode":"200","message":"Authentication Failed","details":"Invalid authentication information."}}"#
      )
    }
    guard let start = Point(request.queryValue("start")), let goal = Point(request.queryValue("goal")) else {
      return Reply.text(
        400, #"{"error":{"errorCode":"100","message":"Bad Request Exception","details":"start or goal is invalid."}}"#)
    }
    let waypoints = (request.queryValue("waypoints") ?? "").split(separator: "|").map { Point(String($0)) }
    let option = (request.queryValue("option") ?? "traoptimal").split(separator: ":").first.map(String.init)
    guard let option, ["trafast", "tracomfort", "traoptimal", "traavoidtoll", "traavoidcaronly"].contains(option)
    else {
      return Reply.text(
        400, #"{"error":{"errorCode":"100","message":"Bad Request Exception","details":"option is invalid."}}"#)
    }
    let stops = [start] + waypoints.compactMap { $0 } + [goal]
    let straight = zip(stops, stops.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    let code: Int =
      if !start.isNearRoad || !goal.isNearRoad { 2 } else if waypoints.contains(where: { $0?.isNearRoad != true }) {
        4
      } else if start.distance(to: goal) < 1, waypoints.isEmpty { 1 } else if start.isOnJeju != goal.isOnJeju {
        3
      } else if straight >= 1_500_000 { 5 } else { 0 }
    guard code == 0 else {
      return Reply.json(
        200, NaverDirections(code: code, message: Self.directionsMessages[code]!, currentDateTime: nil, route: nil))
    }
    let route = makeRoute(through: stops)
    return Reply.json(
      200,
      NaverDirections(
        code: 0, message: Self.directionsMessages[0]!, currentDateTime: "2024-05-14T15:00:00",
        route: [option: [route]]))
  }

  /// A plausible road: each leg bends once, with seeded wobble; guide steps
  /// whose distances and durations add up to the summary's.
  private func makeRoute(through stops: [Point]) -> NaverDirections.Route {
    var path = [stops[0]]
    for (from, to) in zip(stops, stops.dropFirst()) {
      let segments = max(2, min(12, Int(from.distance(to: to) / 150)))
      for step in 1...segments {
        let t = Double(step) / Double(segments)
        let wobble = step == segments ? 0 : Double(Int.random(in: -20...20, using: &random)) / 100_000
        path.append(Point(lng: from.lng + (to.lng - from.lng) * t + wobble, lat: from.lat + (to.lat - from.lat) * t))
      }
    }
    let legs = zip(path, path.dropFirst()).map { Int($0.0.distance(to: $0.1).rounded()) }
    let distance = legs.reduce(0, +)
    let speedKmh = 20
    func duration(_ metres: Int) -> Int { metres * 3_600 / speedKmh }  // ms at 20 km/h
    // Guide points: about four evenly spaced turns, the last one the goal.
    let turns = Array(Set([1, path.count / 3, 2 * path.count / 3, path.count - 1])).sorted().filter { $0 > 0 }
    let roads = ["세종대로", "을지로", "퇴계로", "남대문로"]
    let kinds = [(2, "좌회전"), (1, "직진"), (3, "우회전")]
    var guides: [NaverDirections.Guide] = []
    var previous = 0
    for (index, point) in turns.enumerated() {
      let metres = legs[previous..<point].reduce(0, +)
      let isGoal = point == path.count - 1
      let kind = kinds[index % kinds.count]
      guides.append(
        .init(
          pointIndex: point, type: isGoal ? 88 : kind.0,
          instructions: isGoal ? "목적지" : "\(index + 1)번째 교차로에서 '\(roads[index % roads.count])' 방면으로 \(kind.1)",
          distance: metres, duration: duration(metres)))
      previous = point
    }
    let lngs = path.map(\.lng)
    let lats = path.map(\.lat)
    let kilometres = Double(distance) / 1_000
    return NaverDirections.Route(
      summary: .init(
        start: .init(location: stops[0].pair, dir: nil), goal: .init(location: stops.last!.pair, dir: 2),
        distance: distance, duration: guides.reduce(0) { $0 + $1.duration },
        departureTime: "2024-05-14T15:00:00",
        bbox: [[lngs.min()!, lats.min()!], [lngs.max()!, lats.max()!]],
        tollFare: kilometres > 50 ? Int(kilometres * 50 / 100) * 100 : 0,
        taxiFare: 4_800 + max(0, (distance - 1_600) / 131) * 100,
        fuelPrice: Int((kilometres / 14 * 1_680).rounded())),
      path: path.map(\.pair),
      section: [
        .init(
          pointIndex: 1, pointCount: max(1, path.count - 2), distance: distance, name: roads[0], congestion: 1,
          speed: speedKmh)
      ],
      guide: guides)
  }
}

/// A "lng,lat" coordinate, as Naver writes it.
struct Point {
  let lng: Double
  let lat: Double

  init(lng: Double, lat: Double) {
    self.lng = lng
    self.lat = lat
  }

  init?(_ text: String?) {
    let parts = (text ?? "").split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 2, let lng = parts[0], let lat = parts[1], (-180...180).contains(lng), (-90...90).contains(lat)
    else { return nil }
    self.init(lng: lng, lat: lat)
  }

  var pair: [Double] { [lng, lat] }

  func distance(to other: Point) -> Double { distanceMetres(lat, lng, other.lat, other.lng) }

  /// Naver routes cars in South Korea: mainland or Jeju.
  var isNearRoad: Bool {
    let mainland = (34.3...38.6).contains(lat) && (126.0...129.6).contains(lng)
    return mainland || isOnJeju
  }

  var isOnJeju: Bool { (33.1...33.6).contains(lat) && (126.1...127.0).contains(lng) }
}
