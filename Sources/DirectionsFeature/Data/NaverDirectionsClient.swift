import ActorMVVMNetworking
import Foundation

/// Naver Directions 5 (driving) behind ``DirectionsService``.
///
/// `GET https://naveropenapi.apigw.ntruss.com/map-direction/v1/driving
/// ?start=lng,lat&goal=lng,lat&option=trafast` with the two
/// `X-NCP-APIGW-API-KEY…` headers from configuration (redacted in every
/// description). Route failures come back as HTTP 200 with `code` 1–5 and
/// are mapped, message and all; a gateway 401 is ``DirectionsError/unauthorized(_:)``.
///
/// A `Sendable` struct holding only constants: calls run concurrently, in
/// the caller's task, with no actor hop; what has state (the `HTTPClient`
/// actor, the session) guards it itself.
public struct NaverDirectionsClient: Sendable, DirectionsService {
  public struct Credentials: Sendable {
    public var clientID: String
    public var clientSecret: String

    public init(clientID: String, clientSecret: String) {
      self.clientID = clientID
      self.clientSecret = clientSecret
    }
  }

  private let client: any HTTPClient
  private let credentials: Credentials
  private let host: String

  public init(
    client: any HTTPClient, credentials: Credentials, host: String = "naveropenapi.apigw.ntruss.com"
  ) {
    self.client = client
    self.credentials = credentials
    self.host = host
  }

  struct Driving: Decodable {
    struct Route: Decodable {
      struct Summary: Decodable {
        let distance: Int
        let duration: Int
        let tollFare: Int?
        let taxiFare: Int?
        let fuelPrice: Int?
      }
      struct Guide: Decodable {
        let type: Int
        let instructions: String
        let distance: Int
        let duration: Int
      }
      let summary: Summary
      let path: [[Double]]
      let guide: [Guide]?
    }
    let code: Int
    let message: String
    let route: [String: [Route]]?
  }

  struct GatewayError: Decodable {
    struct Body: Decodable { let message: String }
    let error: Body
  }

  public func route(_ navigation: NavigationData) async throws(DirectionsError) -> DrivingRoute {
    let (client, host, credentials) = (self.client, self.host, self.credentials)
    let response = try await HTTPError.mapping(Self.failure) { () async throws(HTTPError) in
      let request = try HTTPRequest(
        host: host, path: "/map-direction/v1/driving",
        query: [
          ("start", Self.lngLat(navigation.start)), ("goal", Self.lngLat(navigation.goal)), ("option", "trafast"),
        ],
        headers: [
          ("X-NCP-APIGW-API-KEY-ID", credentials.clientID), ("X-NCP-APIGW-API-KEY", credentials.clientSecret),
        ])
      return try await client.send(request)
    }
    if response.status == 401 {
      let message = (try? JSONDecoder().decode(GatewayError.self, from: response.body))?.error.message
      throw .unauthorized(message ?? "HTTP 401")
    }
    let driving = try await HTTPError.mapping(Self.failure) { () async throws(HTTPError) in
      try response.decode(Driving.self)
    }
    switch driving.code {
    case 0: break
    case 1: throw .sameStartAndGoal(driving.message)
    case 2: throw .notNearRoad(driving.message)
    case 3: throw .noCarRoute(driving.message)
    case 4: throw .waypointNotNearRoad(driving.message)
    case 5: throw .routeTooLong(driving.message)
    default: throw .failedRequest("code \(driving.code): \(driving.message)")
    }
    guard let route = driving.route?["trafast"]?.first else { throw .invalidData("no trafast route") }
    return DrivingRoute(
      summary: RouteSummary(
        distanceMetres: route.summary.distance, duration: .milliseconds(route.summary.duration),
        tollFare: route.summary.tollFare ?? 0, taxiFare: route.summary.taxiFare ?? 0,
        fuelPrice: route.summary.fuelPrice ?? 0),
      path: route.path.compactMap { $0.count == 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil },
      guide: (route.guide ?? []).map {
        GuideStep(
          instructions: $0.instructions, distanceMetres: $0.distance, duration: .milliseconds($0.duration),
          type: $0.type)
      })
  }

  /// Naver wants longitude first.
  static func lngLat(_ coordinate: Coordinate) -> String { "\(coordinate.longitude),\(coordinate.latitude)" }

  static func failure(_ error: HTTPError) -> DirectionsError {
    switch error {
    case .undecodable, .emptyBody: .invalidData(error.description)
    default: .failedRequest(error.description)
    }
  }
}
