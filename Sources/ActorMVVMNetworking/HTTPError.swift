import Foundation

/// Everything that can go wrong with an HTTP exchange, as a value.
///
/// Descriptions never contain secrets: URLs and body snippets pass through
/// ``Redaction`` before they are stored here.
public enum HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The request could not be built.
  case invalidURL(String)
  /// The request body could not be encoded.
  case invalidBody(String)
  /// The connection failed (refused, reset, closed mid-body, DNS…).
  case transport(String)
  /// No complete response within the request's timeout.
  case timedOut
  /// The request was cancelled before it completed.
  case cancelled
  /// What came back was not an HTTP response.
  case invalidResponse
  /// A status outside 2xx, with a short redacted snippet of the body and the
  /// `Retry-After` seconds, when the server sent them.
  case status(code: Int, body: String, retryAfter: Int?)
  /// A 2xx response with no body where one was required.
  case emptyBody
  /// A body that does not decode as the expected type; `codingPath` names
  /// the field that failed (`data[0].weather.description`).
  case undecodable(type: String, codingPath: String, reason: String)

  public var description: String {
    switch self {
    case .invalidURL(let url): "invalid URL: \(url)"
    case .invalidBody(let reason): "invalid request body: \(reason)"
    case .transport(let reason): "network failure: \(reason)"
    case .timedOut: "timed out"
    case .cancelled: "cancelled"
    case .invalidResponse: "the response is not HTTP"
    case .status(let code, let body, let retryAfter):
      "HTTP \(code)" + (retryAfter.map { " (retry after \($0) s)" } ?? "") + (body.isEmpty ? "" : ": \(body)")
    case .emptyBody: "empty response body"
    case .undecodable(let type, let path, let reason):
      "cannot decode \(type)" + (path.isEmpty ? "" : " at \(path)") + ": \(reason)"
    }
  }

  /// Runs `body`, turning its ``HTTPError`` into a feature's own error with
  /// `map`: how Data-layer actors keep HTTP out of their domain's types.
  public static func mapping<T, E: Error>(
    _ map: (HTTPError) -> E, _ body: () async throws(HTTPError) -> T
  ) async throws(E) -> T {
    do {
      return try await body()
    } catch {
      throw map(error)
    }
  }

  /// An `undecodable` error naming the coding path of a `DecodingError`.
  public init<T>(decoding error: DecodingError, as type: T.Type) {
    func path(_ keys: [any CodingKey]) -> String {
      keys.reduce(into: "") { path, key in
        if let index = key.intValue {
          path += "[\(index)]"
        } else {
          path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
        }
      }
    }
    switch error {
    case .keyNotFound(let key, let context):
      self = .undecodable(type: "\(type)", codingPath: path(context.codingPath + [key]), reason: "missing key")
    case .typeMismatch(let expected, let context):
      self = .undecodable(
        type: "\(type)", codingPath: path(context.codingPath), reason: "expected \(expected)")
    case .valueNotFound(let expected, let context):
      self = .undecodable(
        type: "\(type)", codingPath: path(context.codingPath), reason: "null where \(expected) expected")
    case .dataCorrupted(let context):
      self = .undecodable(type: "\(type)", codingPath: path(context.codingPath), reason: "malformed JSON")
    @unknown default:
      self = .undecodable(type: "\(type)", codingPath: "", reason: "\(error)")
    }
  }
}
