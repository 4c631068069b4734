import ActorMVVMNetworking

/// randomnumberapi.com behind ``RandomNumberUseCase``:
/// `GET https://www.randomnumberapi.com/api/v1.0/random?min=1&max=3&count=1` → `[n]`.
///
/// Failures as the article's `handleError`: a URL that cannot be built is
/// `invalidURL`; a transport failure or a status other than 200 is
/// `networkError`; a body that is not `[Int]`, an empty array, or a value
/// outside `min...max` is `decodingError`.
///
/// A `Sendable` struct holding only constants: calls run concurrently, in
/// the caller's task, with no actor hop; what has state (the `HTTPClient`
/// actor, the session) guards it itself.
public struct RandomNumberAPIClient: Sendable, RandomNumberUseCase {
  private let client: any HTTPClient
  private let host: String
  private let range: ClosedRange<Int>

  public init(client: any HTTPClient, host: String = "www.randomnumberapi.com", range: ClosedRange<Int> = 1...3) {
    self.client = client
    self.host = host
    self.range = range
  }

  public func nextTarget() async throws(FindNumberError) -> Int {
    let (client, host, range) = (self.client, self.host, self.range)
    let numbers = try await HTTPError.mapping(Self.findNumberError) { () async throws(HTTPError) in
      let request = try HTTPRequest(
        host: host, path: "/api/v1.0/random",
        query: [("min", "\(range.lowerBound)"), ("max", "\(range.upperBound)"), ("count", "1")])
      let response = try await client.send(request)
      guard response.status == 200 else { throw .status(code: response.status, body: "", retryAfter: nil) }
      return try response.decode([Int].self)
    }
    guard let target = numbers.first, range.contains(target) else { throw .decodingError }
    return target
  }

  static func findNumberError(_ error: HTTPError) -> FindNumberError {
    switch error {
    case .invalidURL: .invalidURL
    case .undecodable, .emptyBody: .decodingError
    default: .networkError
    }
  }
}
