import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMSupport
import Foundation

/// An `HTTPClient` that answers from the test: the replacement for the
/// articles' `URLSessionStub` (stubbed data, response, error).
///
/// Records every request it receives, in order. `Sendable`; may be called
/// concurrently.
public final class HTTPClientStub: HTTPClient {
  private let respond: @Sendable (HTTPRequest) async throws(HTTPError) -> HTTPResponse
  private let log = Locked<[HTTPRequest]>([])

  /// Answers every request with `status` and `data`, or throws `error` if given.
  public convenience init(data: Data = Data(), status: Int = 200, error: HTTPError? = nil) {
    self.init { _ throws(HTTPError) in
      if let error { throw error }
      return HTTPResponse(status: status, body: data)
    }
  }

  /// Answers every request with `body` as UTF-8 text.
  public convenience init(json body: String, status: Int = 200) {
    self.init(data: Data(body.utf8), status: status)
  }

  /// Answers each request with what `respond` returns or throws.
  public init(_ respond: @escaping @Sendable (HTTPRequest) async throws(HTTPError) -> HTTPResponse) {
    self.respond = respond
  }

  /// Every request received so far.
  public var requests: [HTTPRequest] { log.withLock { $0 } }

  /// Records `request` and answers it with the stub's response or error.
  public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    log.withLock { $0.append(request) }
    return try await respond(request)
  }
}
