/// Sends HTTP requests: the seam between a feature's Data layer and the
/// network (``URLSessionHTTPClient``), the embedded offline backend, or a stub.
///
/// Concurrency contract for conformers: `send` may be called concurrently
/// from any task; it honours task cancellation (throwing
/// ``HTTPError/cancelled``) and the request's timeout (throwing
/// ``HTTPError/timedOut``); every failure is an ``HTTPError``, never a trap.
/// A non-2xx status is *returned*, not thrown: the caller decides what it
/// means (``HTTPResponse/requireSuccess()`` throws it).
public protocol HTTPClient: Sendable {
  func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
