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
  /// honours it (implementations confirm it first). Returns its user, or
  /// `nil` when nobody can be restored.
  func restore() async -> User?
  /// Whether the last ``restore()`` found a stored session the server
  /// refused (and so forgot it), for the app to say why it asks for a
  /// login; reading it clears it.
  func takeRestoreRefusal() async -> Bool
  /// Ends the session.
  func logout() async
}
