import ActorMVVM
import ActorMVVMStorage
import LoginFeature

/// The signed-in session: ``SessionUseCase`` over an ``AuthUseCase`` for
/// refreshes and a ``KeyValueStore`` to survive restarts.
///
/// - **Expiry** is measured on the injected clock from the moment tokens
///   were issued.
/// - **Restoring** a stored session refreshes it at once (its expiry is
///   unknown after a restart), and only a session the server renews counts:
///   the article's `auth.isValid()` before anything acts for the member.
/// - **One refresh at a time:** callers that find the token expired while a
///   refresh is running await that refresh instead of starting another
///   (20 concurrent requests → one refresh call).
/// - **A new session wins:** a login (or a logout) while a refresh is in
///   flight discards that refresh's answer, so an earlier member's renewed
///   session never replaces a later member's (found by exploring every
///   order: `SessionExplorationTests`).
/// - **A failed refresh logs out:** the session is cleared, the store
///   forgets it, and ``users`` publishes `nil`, which the coordinator turns
///   into a trip to the login screen.
/// - Tokens are stored under "interview.session" in the store given; they
///   are never printed (``TokenPair``'s description hides them).
public actor SessionManager: SessionUseCase {
  public static let storageKey = "interview.session"
  /// The key and type this manager stores, for a store's shape check.
  public static var storedShape: [(key: String, type: any Decodable.Type)] { [(storageKey, StoredSession.self)] }

  private let auth: any AuthUseCase
  private let store: (any KeyValueStore)?
  private let elapsed: @Sendable () -> Duration
  private var session: LoginSession?
  private var expiresAt: Duration = .zero
  private var refreshing: Task<Result<LoginSession, LoginError>, Never>?
  private var restoring: Task<RestoreOutcome, Never>?
  /// Refreshes started (for tests and diagnostics).
  public private(set) var refreshCount = 0

  /// The logged-in user; `nil` after a logout or a failed refresh.
  /// Subscribers start with the current value.
  public nonisolated let users: StateRelay<User?>

  public init(auth: any AuthUseCase, store: (any KeyValueStore)? = nil, clock: any Clock<Duration> = ContinuousClock())
  {
    self.auth = auth
    self.store = store
    self.elapsed = Self.stopwatch(clock)
    self.users = StateRelay(nil)
  }

  private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  public func currentUser() -> User? { session?.user }

  /// Starts `session` (a login, or a refresh's renewal) and stores it. A
  /// refresh still in flight belonged to the session before: its answer is
  /// not applied when it lands (it would put the earlier member back).
  public func start(_ session: LoginSession) async {
    refreshing = nil
    apply(session)
    try? await store?.set(StoredSession(session: session), forKey: Self.storageKey)
  }

  /// Restores the stored session if the server renews it: the stored
  /// refresh token is exchanged at once, and the user is returned (and
  /// published on ``users``) only when that succeeds. A refresh the server
  /// refuses (a 4xx) forgets the stored session; one that fails otherwise
  /// (offline) keeps it for the next launch. Either way nobody is logged
  /// in, and the outcome says which it was. Concurrent calls share one attempt.
  public func restore() async -> RestoreOutcome {
    if let session { return .restored(session.user) }
    if let restoring { return await restoring.value }
    let task = TaskScope.start(named: "SessionManager.restore") { await self.renewStoredSession() }
    restoring = task
    defer { restoring = nil }
    return await task.value
  }

  private func renewStoredSession() async -> RestoreOutcome {
    guard let stored = try? await store?.value(StoredSession.self, forKey: Self.storageKey) else {
      return .nothingStored
    }
    refreshCount += 1
    do throws(LoginError) {
      let renewed = try await auth.refresh(refreshToken: stored.session.tokens.refreshToken)
      await start(renewed)
      return .restored(renewed.user)
    } catch {
      guard case .error(let code) = error, (400..<500).contains(code) else { return .unavailable }
      try? await store?.removeValue(forKey: Self.storageKey)
      return .refused
    }
  }

  public func logout() async {
    session = nil
    refreshing = nil
    users.accept(nil)
    try? await store?.removeValue(forKey: Self.storageKey)
  }

  public func validAccessToken() async throws(InterviewError) -> String {
    guard let current = session else { throw .sessionExpired }
    if elapsed() < expiresAt { return current.tokens.accessToken }
    let task: Task<Result<LoginSession, LoginError>, Never>
    if let running = refreshing {
      task = running
    } else {
      refreshCount += 1
      let (auth, refreshToken) = (self.auth, current.tokens.refreshToken)
      task = TaskScope.start(named: "SessionManager.refresh") {
        do throws(LoginError) {
          return .success(try await auth.refresh(refreshToken: refreshToken))
        } catch {
          return .failure(error)
        }
      }
      refreshing = task
    }
    let result = await task.value
    // The first caller back applies the result; the others find it applied.
    // A refresh that is no longer the one in flight (a login, a logout or a
    // newer refresh came since) is not applied.
    if refreshing == task {
      refreshing = nil
      switch result {
      case .success(let renewed): await start(renewed)
      case .failure: await logout()
      }
    }
    guard case .success(let renewed) = result, session != nil else { throw .sessionExpired }
    return renewed.tokens.accessToken
  }

  private func apply(_ session: LoginSession) {
    self.session = session
    expiresAt = elapsed() + .seconds(session.tokens.expiresIn)
    if users.value != session.user { users.accept(session.user) }
  }

  struct StoredSession: Codable, Sendable {
    let session: LoginSession
  }
}
