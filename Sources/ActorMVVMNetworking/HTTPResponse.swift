import Foundation

/// An HTTP response as a value.
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var headers: [String: String]
  public var body: Data

  public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The header `name`, case-insensitively.
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.key.lowercased() == lowered }?.value
  }

  /// Returns `self` if the status is 2xx, else throws ``HTTPError/status(code:body:retryAfter:)``
  /// with a redacted snippet of the body and any `Retry-After`.
  public func requireSuccess() throws(HTTPError) -> HTTPResponse {
    guard (200..<300).contains(status) else {
      throw .status(
        code: status, body: Redaction.snippet(of: body),
        retryAfter: header("Retry-After").flatMap(Int.init))
    }
    return self
  }

  /// Decodes the body as `T`, after checking for a 2xx status and a body.
  /// - Throws: ``HTTPError/status(code:body:retryAfter:)``, ``HTTPError/emptyBody``,
  ///   or ``HTTPError/undecodable(type:codingPath:reason:)`` naming the path that failed.
  public func decode<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws(HTTPError) -> T {
    let response = try requireSuccess()
    guard !response.body.isEmpty else { throw .emptyBody }
    do {
      return try decoder.decode(T.self, from: response.body)
    } catch let error as DecodingError {
      throw HTTPError(decoding: error, as: T.self)
    } catch {
      throw .undecodable(type: "\(T.self)", codingPath: "", reason: "\(error)")
    }
  }
}
