/// A point on the map (the article's `LocationData`).
public struct Coordinate: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var latitude: Double
  public var longitude: Double

  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  public var description: String { "\(latitude),\(longitude)" }
}

/// Where a route starts and ends (the article's `NavigationData`).
public struct NavigationData: Equatable, Sendable {
  public var start: Coordinate
  public var goal: Coordinate

  public init(start: Coordinate, goal: Coordinate) {
    self.start = start
    self.goal = goal
  }
}

/// The totals of a route.
public struct RouteSummary: Equatable, Sendable {
  public var distanceMetres: Int
  public var duration: Duration
  /// Fares in KRW.
  public var tollFare: Int
  public var taxiFare: Int
  public var fuelPrice: Int

  public init(distanceMetres: Int, duration: Duration, tollFare: Int, taxiFare: Int, fuelPrice: Int) {
    self.distanceMetres = distanceMetres
    self.duration = duration
    self.tollFare = tollFare
    self.taxiFare = taxiFare
    self.fuelPrice = fuelPrice
  }
}

/// One row of the route detail list.
public struct GuideStep: Equatable, Sendable {
  public var instructions: String
  /// From the previous step.
  public var distanceMetres: Int
  public var duration: Duration
  /// Naver's turn type (3 right, 2 left, 88 destination…).
  public var type: Int

  public init(instructions: String, distanceMetres: Int, duration: Duration, type: Int) {
    self.instructions = instructions
    self.distanceMetres = distanceMetres
    self.duration = duration
    self.type = type
  }
}

/// A driving route (the article's `DrivingData`).
public struct DrivingRoute: Equatable, Sendable {
  public var summary: RouteSummary
  public var path: [Coordinate]
  public var guide: [GuideStep]

  public init(summary: RouteSummary, path: [Coordinate], guide: [GuideStep]) {
    self.summary = summary
    self.path = path
    self.guide = guide
  }
}

/// Why there is no route. The API's own failures carry its message.
public enum DirectionsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// "길찾기" with fewer than two markers: nothing was requested.
  case needsStartAndGoal
  /// Code 1: start and goal are the same.
  case sameStartAndGoal(String)
  /// Code 2: start or goal is not near a road.
  case notNearRoad(String)
  /// Code 3: no car route can be given.
  case noCarRoute(String)
  /// Code 4: a waypoint is not near a road.
  case waypointNotNearRoad(String)
  /// Code 5: the route is too long (≥ 1500 km in a straight line).
  case routeTooLong(String)
  /// The API gateway refused the keys (HTTP 401).
  case unauthorized(String)
  /// The request did not complete, or another status came back.
  case failedRequest(String)
  /// The answer did not decode.
  case invalidData(String)

  public var description: String {
    switch self {
    case .needsStartAndGoal: "Tap the map twice: a start and a goal"
    case .sameStartAndGoal(let message), .notNearRoad(let message), .noCarRoute(let message),
      .waypointNotNearRoad(let message), .routeTooLong(let message):
      message
    case .unauthorized(let message): "Directions refused the API keys: \(message)"
    case .failedRequest(let reason): "Directions request failed: \(reason)"
    case .invalidData(let reason): "Directions answer unreadable: \(reason)"
    }
  }
}

/// Driving directions, behind a protocol: the view model stays "dumb".
public protocol DirectionsService: Sendable {
  func route(_ navigation: NavigationData) async throws(DirectionsError) -> DrivingRoute
}
