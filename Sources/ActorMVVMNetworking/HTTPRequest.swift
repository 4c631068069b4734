import Foundation

/// An HTTP request as a value: what a feature's API client builds and an
/// ``HTTPClient`` sends.
///
/// The URL is built with `URLComponents` (``HTTPRequest/init(method:scheme:host:port:path:query:headers:body:timeout:)``),
/// never by string concatenation, so query values are always escaped.
/// `description` redacts secrets (see ``Redaction``).
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible {
  public enum Method: String, Sendable { case get = "GET", post = "POST", put = "PUT", delete = "DELETE" }

  public var method: Method
  public var url: URL
  /// Header fields in the order given. Names compare case-insensitively via ``header(_:)``.
  public var headers: [(name: String, value: String)]
  public var body: Data?
  /// How long the whole exchange may take before it fails with ``HTTPError/timedOut``.
  public var timeout: Duration

  /// The default per-request timeout.
  public static let defaultTimeout: Duration = .seconds(15)

  public init(
    method: Method = .get, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
    timeout: Duration = HTTPRequest.defaultTimeout
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// Builds the URL from its parts with `URLComponents`.
  /// - Throws: ``HTTPError/invalidURL(_:)`` if the parts do not make a URL.
  public init(
    method: Method = .get, scheme: String = "https", host: String, port: Int? = nil, path: String,
    query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
    body: Data? = nil, timeout: Duration = HTTPRequest.defaultTimeout
  ) throws(HTTPError) {
    var components = URLComponents()
    components.scheme = scheme
    components.host = host
    components.port = port
    components.path = path
    if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.name, value: $0.value) } }
    // A "?" in the path would be escaped into it: queries go in `query`.
    guard !host.isEmpty, path.isEmpty || path.hasPrefix("/"), !path.contains("?"), let url = components.url else {
      throw .invalidURL("\(scheme)://\(host)\(path)")
    }
    self.init(method: method, url: url, headers: headers, body: body, timeout: timeout)
  }

  /// A JSON body, with `Content-Type: application/json`.
  public mutating func setJSONBody(_ value: some Encodable) throws(HTTPError) {
    do {
      body = try JSONEncoder().encode(value)
    } catch {
      throw .invalidBody(String(describing: error))
    }
    headers.removeAll { $0.name.lowercased() == "content-type" }
    headers.append((name: "Content-Type", value: "application/json"))
  }

  /// The first value of the header `name` (case-insensitive).
  public func header(_ name: String) -> String? {
    let lowered = name.lowercased()
    return headers.first { $0.name.lowercased() == lowered }?.value
  }

  /// The value of the query item `name`, decoded.
  public func queryValue(_ name: String) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
  }

  public var description: String {
    "\(method.rawValue) \(Redaction.redact(url: url))"
  }

  public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
    lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body && lhs.timeout == rhs.timeout
      && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
  }
}
