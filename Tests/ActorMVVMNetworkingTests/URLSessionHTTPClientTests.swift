import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMSupport
import ActorMVVMTesting
import Foundation
import Testing

/// The real client against a real server on loopback, one fault per test.
@Suite("URLSessionHTTPClient on loopback")
struct URLSessionHTTPClientTests {
  let server: FakeAPIServer
  let client = URLSessionHTTPClient()

  init() throws { server = try FakeAPIServer() }

  func request(_ path: String, query: [(name: String, value: String)] = [], timeout: Duration = .seconds(5)) throws
    -> HTTPRequest
  {
    try HTTPRequest(scheme: "http", host: "127.0.0.1", port: server.port, path: path, query: query, timeout: timeout)
  }

  struct Current: Decodable {
    struct Observation: Decodable {
      struct Weather: Decodable { let description: String }
      let temp: Double
      let weather: Weather
    }
    let data: [Observation]
  }

  @Test("A 200 in Weatherbit's format decodes")
  func success() async throws {
    let response = try await client.send(request("/fixture/weatherbit-current-richmond"))
    let current = try response.decode(Current.self)
    #expect(current.data.first?.temp == 71.6)
    #expect(current.data.first?.weather.description == "Broken clouds")
  }

  @Test("The query is built with URLComponents and escaped")
  func queryEscaping() async throws {
    let request = try HTTPRequest(
      scheme: "http", host: "127.0.0.1", port: server.port, path: "/echo",
      query: [("name", "Richmond, VA"), ("q", "a&b=c")])
    struct Echo: Decodable { let query: [String: String] }
    let echo = try await client.send(request).decode(Echo.self)
    #expect(echo.query == ["name": "Richmond, VA", "q": "a&b=c"])
  }

  @Test("HTTP 500 → status error with a redacted snippet")
  func serverError() async throws {
    let response = try await client.send(request("/status/500"))
    #expect(throws: HTTPError.self) { try response.requireSuccess() }
    do {
      _ = try response.requireSuccess()
    } catch {
      guard case .status(500, let body, nil) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(body.contains("status 500"))
      #expect(!body.contains("s3cr3t"))
    }
  }

  @Test("HTTP 403 → status 403 carrying Weatherbit's message")
  func forbidden() async throws {
    let response = try await client.send(request("/status/403"))
    #expect {
      try response.decode(Current.self)
    } throws: { error in
      guard case HTTPError.status(403, let body, _) = error else { return false }
      return body.contains("API key not valid")
    }
  }

  @Test("HTTP 429 → status 429 with Retry-After")
  func rateLimited() async throws {
    let response = try await client.send(request("/status/429"))
    #expect(throws: HTTPError.status(code: 429, body: Redaction.snippet(of: response.body), retryAfter: 120)) {
      try response.requireSuccess()
    }
  }

  @Test("Malformed JSON → undecodable, naming the type")
  func malformed() async throws {
    let response = try await client.send(request("/malformed"))
    #expect {
      try response.decode(Current.self)
    } throws: { error in
      guard case HTTPError.undecodable(let type, _, let reason) = error else { return false }
      return type == "Current" && reason == "malformed JSON"
    }
  }

  @Test("A wrong shape names the coding path that failed")
  func wrongShape() async throws {
    struct Wrong: Decodable {
      struct Observation: Decodable { let temp: String }
      let data: [Observation]
    }
    let response = try await client.send(request("/fixture/weatherbit-current-seoul"))
    #expect(throws: HTTPError.undecodable(type: "Wrong", codingPath: "data[0].temp", reason: "expected String")) {
      try response.decode(Wrong.self)
    }
  }

  @Test("An empty body → emptyBody")
  func emptyBody() async throws {
    let response = try await client.send(request("/empty"))
    #expect(throws: HTTPError.emptyBody) { try response.decode(Current.self) }
  }

  @Test("A response slower than the timeout → timedOut (the 200 that comes later is never returned)")
  func timeout() async throws {
    await #expect(throws: HTTPError.timedOut) {
      try await client.send(request("/slow", query: [("ms", "3000")], timeout: .milliseconds(300)))
    }
  }

  @Test("A connection closed mid-body → transport error")
  func truncated() async throws {
    await #expect {
      try await client.send(request("/truncated"))
    } throws: { error in
      if case HTTPError.transport = error { return true }
      return false
    }
  }

  @Test("Connection refused → transport error")
  func refused() async throws {
    let request = try HTTPRequest(scheme: "http", host: "127.0.0.1", port: server.closedPort, path: "/")
    await #expect {
      try await client.send(request)
    } throws: { error in
      if case HTTPError.transport = error { return true }
      return false
    }
  }

  @Test(
    "Cancelling the caller mid-transfer closes the connection and throws .cancelled", .timeLimit(.minutes(12)))
  func cancellation() async throws {
    struct Arrived: Decodable { let arrived: Bool }
    struct Closed: Decodable { let closed: Bool }
    let id = UUID().uuidString
    // Every wait below is on the server's own events (arrived, closed), whose
    // only limit (300 s) guards a stuck thread: load slows this test, it
    // cannot fail it.
    let held = try request("/hold/\(id)", timeout: .seconds(330))
    let client = self.client
    let task = Task { try await client.send(held) }
    // The server says when the request is in flight: cancel then, not before.
    let arrived = try await client.send(request("/wait-arrived/\(id)", timeout: .seconds(330))).decode(Arrived.self)
    try #require(arrived.arrived, "the held request never reached the server")
    task.cancel()
    await #expect(throws: HTTPError.cancelled) { try await task.value }
    // And the server saw the client hang up (it would otherwise answer after 300 s).
    let closed = try await client.send(request("/wait-closed/\(id)", timeout: .seconds(330))).decode(Closed.self)
    #expect(closed.closed)
  }

  @Test("POST sends the JSON body and headers")
  func postBody() async throws {
    var request = try self.request("/echo")
    request.method = .post
    request.headers.append((name: "X-Trace", value: "abc"))
    try request.setJSONBody(["id": "alice"])
    struct Echo: Decodable {
      let method: String
      let headers: [String: String]
      let body: String
    }
    let echo = try await client.send(request).decode(Echo.self)
    #expect(echo.method == "POST")
    #expect(echo.headers["x-trace"] == "abc")
    #expect(echo.headers["content-type"] == "application/json")
    #expect(echo.body == #"{"id":"alice"}"#)
  }
}

@Suite("Redaction")
struct RedactionTests {
  @Test("Secret query values are masked in descriptions")
  func queryRedacted() throws {
    let request = try HTTPRequest(
      host: "api.weatherbit.io", path: "/v2.0/current",
      query: [("key", "abc123"), ("lat", "37.5"), ("access_token", "t0k")],
      headers: [("X-NCP-APIGW-API-KEY", "secret-value")])
    #expect(!request.description.contains("abc123"))
    #expect(!request.description.contains("t0k"))
    #expect(request.description.contains("lat=37.5"))
    #expect(Redaction.redact(headers: request.headers).first?.value == Redaction.mask)
  }

  @Test("Secret JSON fields are masked in body snippets")
  func bodyRedacted() {
    let body = Data(#"{"accessToken": "aaa", "refresh_token":"bbb", "name": "kim", "password" : "p\"w"}"#.utf8)
    let snippet = Redaction.snippet(of: body)
    #expect(!snippet.contains("aaa") && !snippet.contains("bbb") && !snippet.contains("p\\\"w"))
    #expect(snippet.contains("kim"))
  }

  @Test("An invalid URL is a typed error")
  func invalidURL() {
    #expect(throws: HTTPError.invalidURL("https://example.com:bad")) {
      try HTTPRequest(host: "example.com", path: ":bad")
    }
  }
}

/// The real client in a test bubble: a request is outside work.
@Suite("URLSessionHTTPClient and virtual time", .testBubble)
struct URLSessionVirtualTimeTests {
  let server: FakeAPIServer

  init() throws { server = try FakeAPIServer() }

  @Test("A request on the wire holds virtual time's idle open: settle() returns once its answer has landed")
  func requestHoldsIdleOpen() async throws {
    let client = URLSessionHTTPClient()
    let slow = try HTTPRequest(
      scheme: "http", host: "127.0.0.1", port: server.port, path: "/slow", query: [("ms", "100")], timeout: .seconds(5))
    let landed = Locked(false)
    let sending = TestBubble.task {
      _ = try? await client.send(slow)
      landed.withLock { $0 = true }
    }
    #expect(await TestClock().settle())
    #expect(landed.withLock { $0 }, "settle() took the request on the wire for idle")
    await sending.value
  }
}
