import LoginFeature

/// Is the service open? (Every screen's base view model checked it.)
public protocol ServiceCheckUseCase: Sendable {
  func serviceStatus() async throws(InterviewError) -> ServiceStatus
}

/// The home screen's data, unread count included.
public protocol HomeUseCase: Sendable {
  func home() async throws(InterviewError) -> HomeData
}

/// The article's `AnalysisResultUseCase`.
public protocol AnalysisUseCase: Sendable {
  /// The interview's title section.
  func interview(termNo: Int) async throws(InterviewError) -> InterviewSummary
  /// The full analysis report.
  func analysisReport(termNo: Int) async throws(InterviewError) -> AnalysisReport
}

/// Message rooms and messages.
public protocol MessagesUseCase: Sendable {
  func rooms() async throws(InterviewError) -> [MessageRoom]
  func messages(roomId: Int) async throws(InterviewError) -> [Message]
}

/// Reporting a message.
public protocol DeclareUseCase: Sendable {
  func declare(messageId: Int, reason: String) async throws(InterviewError) -> DeclareResult
}

/// The member's page.
public protocol MyPageUseCase: Sendable {
  func myPage() async throws(InterviewError) -> MyPageData
}

/// The signed-in session: who is logged in, and a valid access token on
/// demand. Implementations refresh an expired token before handing it out,
/// sharing one refresh among concurrent callers, and log out when the
/// refresh fails.
/// What restoring a stored session came to (``SessionUseCase/restore()``).
public enum RestoreOutcome: Equatable, Sendable {
  /// The server renewed it: this member is logged in.
  case restored(User)
  /// No session was stored.
  case nothingStored
  /// The server refused it (a 4xx): it was forgotten; log in again.
  case refused
  /// The server could not be asked (offline): it is kept for the next try.
  case unavailable

  /// The member, if restored.
  public var user: User? {
    if case .restored(let user) = self { user } else { nil }
  }
}

public protocol SessionUseCase: Sendable {
  /// The logged-in member, if any.
  func currentUser() async -> User?
  /// A valid access token, refreshed first if expired.
  /// - Throws: ``InterviewError/sessionExpired`` when nobody is logged in
  ///   or the refresh failed (the session is then cleared).
  func validAccessToken() async throws(InterviewError) -> String
  /// Starts a session from a login.
  func start(_ session: LoginSession) async
  /// Restores the stored session if there is one and the server still
  /// honours it (implementations confirm it first), and says how it went:
  /// the member, or why nobody was restored.
  func restore() async -> RestoreOutcome
  /// Ends the session.
  func logout() async
}
