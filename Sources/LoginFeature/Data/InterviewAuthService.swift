import ActorMVVMNetworking

/// The interview API's auth endpoints behind ``AuthUseCase``:
/// `POST /v1/auth/login` and `POST /v1/auth/refresh`.
///
/// A refusal keeps its status (`error(code: 401)`); a failure with no
/// status (no connection, a body that does not decode) is `defaultError`.
/// Passwords and tokens travel in JSON bodies and never appear in a
/// description or error.
///
/// A `Sendable` struct holding only constants: calls run concurrently, in
/// the caller's task, with no actor hop; what has state (the `HTTPClient`
/// actor, the session) guards it itself.
public struct InterviewAuthService: Sendable, AuthUseCase {
  private let client: any HTTPClient
  private let host: String

  public init(client: any HTTPClient, host: String = "api.interview.example") {
    self.client = client
    self.host = host
  }

  struct Auth: Decodable {
    struct Member: Decodable {
      let memIdx: Int
      let id: String
      let name: String
    }
    let member: Member
    let accessToken: String
    let refreshToken: String
    let expiresIn: Int
  }

  public func login(id: String, password: String) async throws(LoginError) -> LoginSession {
    try await post("/v1/auth/login", ["id": id, "password": password])
  }

  public func refresh(refreshToken: String) async throws(LoginError) -> LoginSession {
    try await post("/v1/auth/refresh", ["refreshToken": refreshToken])
  }

  private func post(_ path: String, _ body: [String: String]) async throws(LoginError) -> LoginSession {
    let (client, host) = (self.client, self.host)
    let auth = try await HTTPError.mapping(Self.loginError) { () async throws(HTTPError) in
      var request = try HTTPRequest(method: .post, host: host, path: path)
      try request.setJSONBody(body)
      return try await client.send(request).decode(Auth.self)
    }
    return LoginSession(
      user: User(id: auth.member.id, name: auth.member.name, memIdx: auth.member.memIdx),
      tokens: TokenPair(accessToken: auth.accessToken, refreshToken: auth.refreshToken, expiresIn: auth.expiresIn))
  }

  static func loginError(_ error: HTTPError) -> LoginError {
    if case .status(let code, _, _) = error { return .error(code: code) }
    return .defaultError
  }
}
