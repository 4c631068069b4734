import ActorMVVM
import ActorMVVMSupport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real ``HTTPClient``: `URLSession` (FoundationNetworking on Linux).
///
/// - **Concurrency:** an actor owning its session; `send` is nonisolated and
///   never serialises requests behind one another.
/// - **Timeout:** each request's ``HTTPRequest/timeout`` bounds the whole
///   exchange: the session's own timer, plus a watchdog that cancels the
///   transfer and reports ``HTTPError/timedOut`` when it fires first.
/// - **Cancellation:** cancelling the calling task cancels the transfer
///   itself (`URLSessionTask.cancel()`), and `send` throws ``HTTPError/cancelled``.
/// - **Secrets:** errors carry URL error codes, never the request URL.
/// - **Virtual time:** a request in flight is outside work
///   (`withOutsideWork(isolation:_:)`): in a test, virtual time waits for its
///   answer instead of moving while it is on the wire.
public actor URLSessionHTTPClient: HTTPClient {
  private let session: URLSession

  public init(configuration: URLSessionConfiguration = .ephemeral) {
    session = URLSession(configuration: configuration)
  }

  deinit { session.invalidateAndCancel() }

  public nonisolated func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
    if Task.isCancelled { throw .cancelled }
    var urlRequest = URLRequest(url: request.url)
    urlRequest.httpMethod = request.method.rawValue
    urlRequest.httpBody = request.body
    urlRequest.timeoutInterval = timeInterval(request.timeout)
    for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }

    let transfer = Transfer()
    let watchdog = Task {
      try await ContinuousClock().sleep(for: request.timeout)
      transfer.cancel(timedOut: true)
    }
    defer { watchdog.cancel() }
    do {
      // On the wire the job count sees nothing: a test's virtual time waits for the answer.
      return try await withOutsideWork {
        try await withTaskCancellationHandler {
          try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPResponse, any Error>) in
            let task = session.dataTask(with: urlRequest) { data, response, error in
              if let error {
                continuation.resume(throwing: Self.map(error, timedOut: transfer.timedOut))
              } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
                continuation.resume(
                  returning: HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
              } else {
                continuation.resume(throwing: HTTPError.invalidResponse)
              }
            }
            transfer.start(task)
          }
        } onCancel: {
          transfer.cancel(timedOut: false)
        }
      }
    } catch let error as HTTPError {
      throw error
    } catch {
      throw .transport("\(type(of: error))")
    }
  }

  private static func map(_ error: any Error, timedOut: Bool) -> HTTPError {
    guard let urlError = error as? URLError else { return .transport("\(type(of: error))") }
    switch urlError.code {
    case .timedOut: return .timedOut
    case .cancelled: return timedOut ? .timedOut : .cancelled
    case .cannotConnectToHost: return .transport("connection refused")
    case .networkConnectionLost: return .transport("connection closed before the response was complete")
    case .cannotFindHost, .dnsLookupFailed: return .transport("host not found")
    case .notConnectedToInternet: return .transport("not connected to the internet")
    default: return .transport("URL error \(urlError.code.rawValue)")
    }
  }
}

/// The data task of one `send`, cancellable from the cancellation handler
/// and the watchdog, whichever comes first (a cancel that arrives before the
/// task exists is remembered and applied when it starts).
private final class Transfer: Sendable {
  private struct State {
    var task: URLSessionDataTask?
    var cancelled = false
    var timedOut = false
  }

  private let state = Locked(State())

  var timedOut: Bool { state.withLock { $0.timedOut } }

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { state in
      state.task = task
      return state.cancelled
    }
    task.resume()
    if cancelled { task.cancel() }
  }

  func cancel(timedOut: Bool) {
    let task = state.withLock { state -> URLSessionDataTask? in
      guard !state.cancelled else { return nil }
      state.cancelled = true
      state.timedOut = timedOut
      return state.task
    }
    task?.cancel()
  }
}

/// `duration` in (fractional) seconds, as `URLRequest.timeoutInterval` takes it.
/// A free function, not an extension of `Duration`: an app that links
/// networking gets no new name on a standard-library type.
func timeInterval(_ duration: Duration) -> Double {
  let (seconds, attoseconds) = duration.components
  return Double(seconds) + Double(attoseconds) / 1e18
}
