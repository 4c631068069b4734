import ActorMVVM

/// The signed-in person (the article's `User`, with the member index the
/// interview API knows them by).
public struct User: Codable, Equatable, Sendable {
  public var id: String
  public var name: String
  public var memIdx: Int

  public init(id: String, name: String, memIdx: Int) {
    self.id = id
    self.name = name
    self.memIdx = memIdx
  }
}

/// An access and refresh token pair. `description` never shows them.
public struct TokenPair: Codable, Equatable, Sendable, CustomStringConvertible {
  public var accessToken: String
  public var refreshToken: String
  /// Seconds the access token lives from the moment it was issued.
  public var expiresIn: Int

  public init(accessToken: String, refreshToken: String, expiresIn: Int) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.expiresIn = expiresIn
  }

  public var description: String { "TokenPair(\(Secrets.mask), expires in \(expiresIn) s)" }
}

/// What a successful login yields.
public struct LoginSession: Codable, Equatable, Sendable {
  public var user: User
  public var tokens: TokenPair

  public init(user: User, tokens: TokenPair) {
    self.user = user
    self.tokens = tokens
  }
}

/// The article's `LoginError`, with its messages.
public enum LoginError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Missing input, or a failure without a status code: "ERROR".
  case defaultError
  /// The server refused with this status: "401 Error".
  case error(code: Int)

  /// The message the view shows.
  public var msg: String {
    switch self {
    case .defaultError: "ERROR"
    case .error(let code): "\(code) Error"
    }
  }

  public var description: String { msg }
}

/// Authentication, behind a protocol (the article's `LoginModel`).
public protocol AuthUseCase: Sendable {
  /// Logs in with an id and password.
  func login(id: String, password: String) async throws(LoginError) -> LoginSession
  /// Trades a refresh token for a new pair.
  func refresh(refreshToken: String) async throws(LoginError) -> LoginSession
}
