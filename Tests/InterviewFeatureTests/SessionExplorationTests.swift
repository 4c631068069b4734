import ActorMVVM
import ActorMVVMStorage
import ActorMVVMTesting
import InterviewFeature
import LoginFeature
import Testing

/// Token refreshes answered by the explorer: renewed (for the member the
/// refresh token belongs to) or refused.
struct ExploredRefresh: AuthUseCase {
  let call: ExploredCall<String, LoginSession, LoginError>

  init(_ world: ExplorationWorld) {
    call = world.call(
      "refresh",
      answers: { (token: String) -> [Result<LoginSession, LoginError>] in
        [.success(SessionRules.session(String(token.dropFirst("refresh-".count)))), .failure(.error(code: 401))]
      }, whenCancelled: LoginError.defaultError)
  }

  func login(id: String, password: String) async throws(LoginError) -> LoginSession { throw .defaultError }
  func refresh(refreshToken: String) async throws(LoginError) -> LoginSession { try await call(refreshToken) }
}

/// A store that tells the world whose session it holds after every change.
actor RememberingStore: KeyValueStore {
  let base = InMemoryKeyValueStore()
  let world: ExplorationWorld

  init(_ world: ExplorationWorld) { self.world = world }

  func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String) async throws(StorageError) -> T? {
    try await base.value(type, forKey: key)
  }
  func set<T: Codable & Sendable>(_ value: T, forKey key: String) async throws(StorageError) {
    try await base.set(value, forKey: key)
    await remember()
  }
  func set(_ values: [String: JSONValue]) async throws(StorageError) {
    await base.set(values)
    await remember()
  }
  func removeValue(forKey key: String) async throws(StorageError) {
    await base.removeValue(forKey: key)
    await remember()
  }
  func takeWarnings() async -> [StorageWarning] { [] }

  /// The id of the member whose session is stored, or "none".
  private func remember() async {
    let stored = await base.snapshot[SessionManager.storageKey]
    guard case .object(let root)? = stored, case .object(let session)? = root["session"],
      case .object(let user)? = session["user"], case .string(let id)? = user["id"]
    else { return world.remember("none", as: "stored") }
    world.remember(id, as: "stored")
  }
}

/// The session manager driven as the app drives it: a login, a request
/// that needs a fresh token (every token here has expired), a logout —
/// each an effect calling the actor, so they race as the app's screens do.
struct SessionHarness: StateMachine {
  struct State: Equatable, Sendable {}
  enum Input: Sendable { case login(String), request, logout }
  typealias Output = Never

  let manager: SessionManager

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let manager = self.manager
    switch input {
    case .login(let id): return .run { _ in await manager.start(SessionRules.session(id)) }
    case .request: return .run { _ in _ = try? await manager.validAccessToken() }
    case .logout: return .run { _ in await manager.logout() }
    }
  }
}

enum SessionRules {
  /// A session for `id` whose access token has already expired.
  static func session(_ id: String) -> LoginSession {
    LoginSession(
      user: User(id: id, name: id, memIdx: 1),
      tokens: TokenPair(accessToken: "access-\(id)", refreshToken: "refresh-\(id)", expiresIn: 0))
  }

  /// Who must be stored once everything has settled: the last member to
  /// log in, unless a logout came after — or nobody, if a refresh was
  /// refused since that login.
  static func expectedStored(_ steps: [ExplorationStep<SessionHarness.Input>]) -> Set<String> {
    var member: String?
    var refusedSinceLogin = false
    for step in steps {
      switch step {
      case .send(.login(let id)):
        member = id
        refusedSinceLogin = false
      case .send(.logout): member = nil
      case .answer(_, 1): refusedSinceLogin = true
      default: break
      }
    }
    guard let member else { return ["none"] }
    // A refused refresh logs out — unless it belonged to an earlier login.
    return refusedSinceLogin ? ["none", member] : [member]
  }

  static func exploration(_ inputs: [SessionHarness.Input]) -> Exploration<SessionHarness> {
    Exploration<SessionHarness>(inputs: .alphabet(inputs, count: 4)) { world in
      let manager = SessionManager(auth: ExploredRefresh(world), store: RememberingStore(world), clock: world.clock)
      return (SessionHarness(manager: manager), .init())
    }
    .whenSettled("no session is stored after a logout, and the one stored is the last member's") {
      let stored = $0.world.remembered("stored", as: String.self) ?? "none"
      return expectedStored($0.steps).contains(stored)
    }
    .reading(.events)
  }
}

@Suite("Exploring every order: the session's token refresh", .testBubble)
struct SessionExplorationTests {
  @Test(
    "Any 4 of two members' logins, a request that refreshes and a logout, refreshes renewed or refused in any order: no session is stored after a logout"
  )
  func refreshRacingLogout() async {
    let report = await SessionRules.exploration([.login("alice"), .login("bob"), .request, .logout]).explore()
    print("session, any 4 of two logins/request/logout × 2 answers: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
  }

  @Test(
    "Regression, found by the exploration above: a member who logs in while the previous member's refresh is in flight stays stored when that refresh lands"
  )
  func laterLoginWinsOverAnEarlierRefresh() async {
    let outcome = await SessionRules.exploration([.login("alice"), .login("bob"), .request, .logout]).replay([
      .send(.login("alice")), .send(.request), .send(.login("bob")), .answer(#"refresh("refresh-alice")"#, 0),
    ])
    #expect(outcome.brokenInvariant == nil, "\(outcome.brokenInvariant ?? "")")
  }

  @Test(
    "Regression, found by the exploration above: the earlier member's refresh, landing while the later member's own refresh runs, is not applied"
  )
  func earlierRefreshDuringALaterOne() async {
    let outcome = await SessionRules.exploration([.login("alice"), .login("bob"), .request, .logout]).replay([
      .send(.login("alice")), .send(.request), .send(.login("bob")), .send(.request),
      .answer(#"refresh("refresh-alice")"#, 0), .answer(#"refresh("refresh-bob")"#, 0),
    ])
    #expect(outcome.brokenInvariant == nil, "\(outcome.brokenInvariant ?? "")")
  }
}
