import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMStorage
import ActorMVVMTesting
import EmbeddedBackend
import InterviewFeature
import LoginFeature
import Testing

let alice = User(id: "alice", name: "Alice Kim", memIdx: 1)

/// The interview stack over an embedded backend with a test clock.
struct Stack {
  let clock = TestClock()
  let backend: EmbeddedBackend
  let store = InMemoryKeyValueStore()
  let session: SessionManager
  let api: InterviewAPIClient

  init(tokenLifetime: Duration = .seconds(60)) {
    backend = EmbeddedBackend(.init(clock: clock, accessTokenLifetime: tokenLifetime))
    session = SessionManager(auth: InterviewAuthService(client: backend), store: store, clock: clock)
    api = InterviewAPIClient(client: backend, session: session)
  }

  func login(_ id: String = "alice", _ password: String = "secret") async throws {
    await session.start(try await InterviewAuthService(client: backend).login(id: id, password: password))
  }
}

@Suite("Interview: session and token refresh", .testBubble)
struct SessionTests {
  @Test("20 concurrent requests with an expired token share exactly one refresh")
  func oneRefresh() async throws {
    let stack = Stack()
    try await stack.login()
    await stack.clock.advance(by: .seconds(61))
    let api = stack.api
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<20 { group.addTask { try await api.home().unreadCount } }
      for try await unread in group { #expect(unread == 3) }
    }
    #expect(await stack.backend.refreshCount == 1)
    #expect(await stack.session.refreshCount == 1)
  }

  @Test("A failed refresh logs out: the session ends and users publishes nil")
  func failedRefresh() async throws {
    let stack = Stack()
    try await stack.login()
    var users = stack.session.users.values.makeAsyncIterator()
    #expect(await users.next() == .some(alice))
    await stack.clock.advance(by: .seconds(61))
    await stack.backend.inject(.status(401, body: #"{"code":401,"message":"refresh token invalid"}"#), on: .interview)
    await #expect(throws: InterviewError.sessionExpired) { try await stack.api.home() }
    #expect(await users.next() == .some(nil))
    #expect(await stack.session.currentUser() == nil)
    #expect(try await stack.store.value(Int.self, forKey: SessionManager.storageKey) == nil)
  }

  @Test("A stored session is renewed as it is restored (the article's isValid); its first use needs no other refresh")
  func restore() async throws {
    let stack = Stack()
    try await stack.login()
    let restarted = SessionManager(
      auth: InterviewAuthService(client: stack.backend), store: stack.store, clock: stack.clock)
    #expect(await restarted.currentUser() == nil)
    #expect(await restarted.restore() == .restored(alice))
    #expect(await stack.backend.refreshCount == 1)
    #expect(restarted.users.value == alice)
    _ = try await InterviewAPIClient(client: stack.backend, session: restarted).home()
    #expect(await restarted.refreshCount == 1)
  }

  @Test("A stored session the server refuses is not restored and is forgotten; an offline one is kept for later")
  func restoreRefused() async throws {
    let stack = Stack()
    try await stack.login()
    let restarted = SessionManager(
      auth: InterviewAuthService(client: stack.backend), store: stack.store, clock: stack.clock)
    await stack.backend.inject(.transport("offline"), on: .interview)
    #expect(await restarted.restore() == .unavailable)  // offline is no refusal
    #expect(await stack.store.snapshot[SessionManager.storageKey] != nil)
    await stack.backend.inject(.status(401, body: #"{"code":401,"message":"refresh token invalid"}"#), on: .interview)
    #expect(await restarted.restore() == .refused)
    #expect(await restarted.restore() == .nothingStored)  // forgotten
    #expect(restarted.users.value == nil)
    #expect(await stack.store.snapshot[SessionManager.storageKey] == nil)
  }

  @Test("Concurrent restores share one refresh")
  func concurrentRestores() async throws {
    let stack = Stack()
    try await stack.login()
    let restarted = SessionManager(
      auth: InterviewAuthService(client: stack.backend), store: stack.store, clock: stack.clock)
    async let first = restarted.restore()
    async let second = restarted.restore()
    #expect(await [first, second] == [.restored(alice), .restored(alice)])
    #expect(await stack.backend.refreshCount == 1)
  }
}

@Suite("Interview: deep links", .testBubble)
struct DeepLinkTests {
  @Test(
    "Parsing",
    arguments: [
      ("actormvvm://analysis-complete?memIdx=1&termNo=101", DeepLink.analysisComplete(memIdx: 1, termNo: 101)),
      ("actormvvm://analysis-complete?termNo=101", .analysisComplete(memIdx: nil, termNo: 101)),
      ("actormvvm://expiration?days=1", .expiration1d),
      ("actormvvm://expiration?days=3", .expiration3d),
      ("ACTORMVVM://expiration?days=7", .expiration7d),
      ("actormvvm://expiration?days=2", .other("expiration")),
      ("actormvvm://promo", .other("promo")),
    ])
  func parsing(text: String, link: DeepLink) throws {
    #expect(try DeepLink(parsing: text) == link)
  }

  @Test(
    "Malformed links are typed errors",
    arguments: ["https://example.com", "not a url", "actormvvm://", "actormvvm://analysis-complete?memIdx=one"])
  func malformed(text: String) {
    #expect(throws: DeepLinkError.self) { try DeepLink(parsing: text) }
  }

  struct NoHome: HomeUseCase {
    func home() async throws(InterviewError) -> HomeData { throw .notFound }
  }

  @Test(
    "Home's rules, for the member the link arrives for: the right member opens the report; another member, missing data or nobody dismisses to main; unknown does nothing"
  )
  func homeRules() async {
    // Nothing loaded: the rules read the member the link carries, not the screen's state.
    let tester = FeatureTester(HomeMachine(home: NoHome()), initialState: .init())
    await tester.send(.deepLinkReceived(.analysisComplete(memIdx: 1, termNo: 101), member: alice))
    await tester.expectOutput(.openReport(termNo: 101))
    await tester.send(.deepLinkReceived(.analysisComplete(memIdx: 2, termNo: 201), member: alice))
    await tester.expectOutput(.dismissToMain)
    await tester.send(.deepLinkReceived(.analysisComplete(memIdx: 1, termNo: nil), member: alice))
    await tester.expectOutput(.dismissToMain)
    await tester.send(.deepLinkReceived(.expiration3d, member: alice))
    await tester.expectOutput(.openMyPage)
    // Unknown: nothing (the article's default: break).
    await tester.send(.deepLinkReceived(.other("promo"), member: alice))
    await tester.finish()

    // A screen still showing alice does not make a link for nobody hers.
    let anonymous = FeatureTester(HomeMachine(home: NoHome()), initialState: .init(member: alice))
    await anonymous.send(.deepLinkReceived(.analysisComplete(memIdx: 1, termNo: 101), member: nil))
    await anonymous.expectOutput(.dismissToMain)
    await anonymous.send(.deepLinkReceived(.expiration1d, member: nil))
    await anonymous.expectOutput(.dismissToMain)
    await anonymous.finish()
  }
}

@Suite("Interview: screens", .testBubble)
struct InterviewScreenTests {
  @Test("Intro: restored session → home; none → login; maintenance → stays with the notice")
  func intro() async throws {
    let stack = Stack()
    let fresh = FeatureTester(IntroMachine(serviceCheck: stack.api, session: stack.session), initialState: .init())
    await fresh.send(.appeared) { $0.isChecking = true }
    await fresh.receive(.checked(ServiceStatus(available: true, notice: nil), restored: nil)) { $0.isChecking = false }
    await fresh.expectOutput(.showLogin)
    await fresh.finish()

    try await stack.login()
    let restored = FeatureTester(IntroMachine(serviceCheck: stack.api, session: stack.session), initialState: .init())
    await restored.send(.appeared) { $0.isChecking = true }
    await restored.receive(.checked(ServiceStatus(available: true, notice: nil), restored: alice)) {
      $0.isChecking = false
    }
    await restored.expectOutput(.showHome(alice))
    await restored.finish()

    await stack.backend.setInterviewMaintenance("점검 중입니다.")
    let closed = FeatureTester(IntroMachine(serviceCheck: stack.api, session: stack.session), initialState: .init())
    await closed.send(.appeared) { $0.isChecking = true }
    await closed.receive(.checked(ServiceStatus(available: false, notice: "점검 중입니다."), restored: nil)) {
      $0.isChecking = false
      $0.notice = "점검 중입니다."
    }
    // Under maintenance the user can still ask for login: the intro says so; the flow navigates.
    await closed.send(.loginTapped)
    await closed.expectOutput(.showLogin)
    await closed.finish()
  }

  @Test("Intro: a stored session the server refuses says why, then shows login")
  func introRefusedSession() async throws {
    let stack = Stack()
    try await stack.login()
    // The stored refresh token is one the server never issued: it refuses it.
    func revoked(_ value: JSONValue) -> JSONValue {
      guard case .object(var fields) = value else { return value }
      for (key, field) in fields { fields[key] = key == "refreshToken" ? .string("revoked") : revoked(field) }
      return .object(fields)
    }
    let stored = try #require(await stack.store.snapshot[SessionManager.storageKey])
    await stack.store.set([SessionManager.storageKey: revoked(stored)])
    let restarted = SessionManager(
      auth: InterviewAuthService(client: stack.backend), store: stack.store, clock: stack.clock)
    let intro = FeatureTester(IntroMachine(serviceCheck: stack.api, session: restarted), initialState: .init())
    await intro.send(.appeared) { $0.isChecking = true }
    await intro.receive(.restoreRefused) {
      $0.isChecking = false
      $0.error = .sessionExpired
    }
    await intro.expectOutput(.sessionExpired)
    await intro.finish()
  }

  @Test("Report: load shows the title; the total report adds every section; errors carry their trigger")
  func report() async throws {
    let stack = Stack()
    try await stack.login()
    let feature = Feature(
      ReportMachine(analysis: stack.api), initialState: .init(termNo: 101), counters: LifetimeCounters())
    feature.send(.loadTriggered)
    await feature.idle()
    #expect(await feature.state.sections.count == 1)
    feature.send(.totalReportTriggered)
    await feature.idle()
    let sections = await feature.state.sections
    #expect(sections.count == 5)
    if case .keywords(let keywords) = sections.last { #expect(keywords.contains("Swift")) }
    await feature.finish()

    let notReady = Feature(
      ReportMachine(analysis: stack.api), initialState: .init(termNo: 102), counters: LifetimeCounters())
    notReady.send(.totalReportTriggered)
    await notReady.idle()
    #expect(await notReady.state.error == TriggeredError(.totalReport, .notReady))
    await notReady.finish()
  }

  @Test("Messages: declare → declare screen → a URL to open, or the declare-complete alert")
  func declareFlow() async throws {
    let stack = Stack()
    try await stack.login()
    let (room, _, messages) = try await stack.openFirstRoom(memberID: nil)
    await room.send(.declareTapped(messageId: 13))
    await room.expectOutput(.openDeclare(messages[2]))

    let declare = FeatureTester(DeclareMachine(declare: stack.api), initialState: .init(message: messages[2]))
    await declare.send(.reasonChanged("spam")) { $0.reason = "spam" }
    await declare.send(.submitTapped) { $0.isSubmitting = true }
    let url = DeclareResult.openURL("https://help.interview.example/declare/13")
    await declare.receive(.declared(url)) { $0.isSubmitting = false }
    await declare.expectOutput(.finished(url))
    await declare.finish()

    await room.send(.declareFinished(url))
    await room.expectOutput(.openURL("https://help.interview.example/declare/13"))
    await room.send(.declareFinished(.completed))
    await room.expectOutput(.alert(.declareComplete))
    await room.finish()
  }

  @Test("Messages: only the other party's messages can be declared; an error clears on the next success")
  func declareRules() async throws {
    let stack = Stack()
    try await stack.login()
    let (room, rooms, messages) = try await stack.openFirstRoom(memberID: "alice")
    #expect(messages[1].sender == "alice")
    await room.send(.declareTapped(messageId: 12)) { $0.error = TriggeredError(.declare, .ownMessage) }
    await room.send(.declareTapped(messageId: 99)) { $0.error = TriggeredError(.declare, .notFound) }
    await room.send(.declareTapped(messageId: 13)) { $0.error = nil }
    await room.expectOutput(.openDeclare(messages[2]))
    await room.send(.roomSelected(3)) { $0.isLoading = true }
    await room.receive(.roomsLoaded(rooms))
    await room.receive(.failed(TriggeredError(.messages, .notFound))) {
      $0.isLoading = false
      $0.error = TriggeredError(.messages, .notFound)
    }
    await room.finish()
  }
}

extension Stack {
  /// A messages screen that has appeared and loaded its first room, checked
  /// step by step; the rooms and that room's messages as the API has them.
  func openFirstRoom(memberID: String?) async throws -> (
    FeatureTester<MessagesMachine>, rooms: [MessageRoom], messages: [Message]
  ) {
    let room = FeatureTester(MessagesMachine(messages: api), initialState: .init(memberID: memberID))
    await room.send(.appeared) { $0.isLoading = true }
    let rooms = try await api.rooms()
    let messages = try await api.messages(roomId: 1)
    await room.receive(.roomsLoaded(rooms)) { $0.rooms = rooms }
    await room.receive(.messagesLoaded(rooms[0], messages)) {
      $0.isLoading = false
      $0.room = rooms[0]
      $0.messages = messages
    }
    return (room, rooms, messages)
  }
}

/// An analysis whose title waits for a gate and whose report is not ready.
struct GatedAnalysis: AnalysisUseCase {
  let gate: TestGate
  static let summary = InterviewSummary(
    termNo: 7, title: "t", companyName: "c", careerName: "", occupationName: "", regDate: "", completed: true)

  func interview(termNo: Int) async throws(InterviewError) -> InterviewSummary {
    await gate.wait()
    return Self.summary
  }

  func analysisReport(termNo: Int) async throws(InterviewError) -> AnalysisReport { throw .notReady }
}

@Suite("Report: activity", .testBubble)
struct ReportActivityTests {
  @Test("isLoading while any trigger's request is in flight, in reduce where a tester sees it")
  func loading() async {
    let gate = TestGate()
    let tester = FeatureTester(ReportMachine(analysis: GatedAnalysis(gate: gate)), initialState: .init(termNo: 7))
    await tester.send(.loadTriggered) { $0.loading = [.load] }
    #expect(await tester.state.isLoading)
    await tester.send(.totalReportTriggered) { $0.loading = [.load, .totalReport] }
    await tester.receive(.failed(TriggeredError(.totalReport, .notReady))) {
      $0.error = TriggeredError(.totalReport, .notReady)
      $0.loading = [.load]
    }
    #expect(await tester.state.isLoading)
    gate.open()
    await tester.receive(.interviewLoaded(GatedAnalysis.summary)) {
      $0.interview = GatedAnalysis.summary
      $0.sections = [.title(GatedAnalysis.summary)]
      $0.error = nil
      $0.loading = []
    }
    #expect(await !tester.state.isLoading)
    await tester.finish()
  }
}

/// A store whose writes all fail, as an unwritable data directory's do.
struct UnwritableStore: KeyValueStore {
  let base = InMemoryKeyValueStore()
  func value<T: Codable & Sendable>(_ type: T.Type, forKey key: String) async throws(StorageError) -> T? {
    try await base.value(type, forKey: key)
  }
  func set<T: Codable & Sendable>(_ value: T, forKey key: String) async throws(StorageError) {
    throw .writeFailed(path: "store.json", reason: "Permission denied")
  }
  func set(_ values: [String: JSONValue]) async throws(StorageError) {
    throw .writeFailed(path: "store.json", reason: "Permission denied")
  }
  func removeValue(forKey key: String) async throws(StorageError) {
    throw .writeFailed(path: "store.json", reason: "Permission denied")
  }
  func takeWarnings() async -> [StorageWarning] { [] }
}

@Test("In an unwritable store, saving the session at login and forgetting it at logout are each reported")
func unsavedSessionIsReported() async throws {
  let clock = TestClock()
  let backend = EmbeddedBackend(.init(clock: clock))
  let reported = AsyncStream<StorageWarning>.makeStream()
  let store = ReportingKeyValueStore(UnwritableStore()) { reported.continuation.yield($0) }
  let session = SessionManager(auth: InterviewAuthService(client: backend), store: store, clock: clock)
  await session.start(try await InterviewAuthService(client: backend).login(id: "alice", password: "secret"))
  await session.logout()
  reported.continuation.finish()
  var warnings: [String] = []
  for await warning in reported.stream { warnings.append(warning.description) }
  #expect(warnings == Array(repeating: "not saved: cannot write store.json: Permission denied", count: 2))
}

@Test("Declare refuses a report without a reason: an error, no request")
func declareNeedsAReason() async {
  let stack = Stack()
  let message = Message(messageId: 13, sender: "company", text: "Buy now", sentAt: "2026-01-01")
  let declare = FeatureTester(DeclareMachine(declare: stack.api), initialState: .init(message: message))
  await declare.send(.submitTapped) { $0.error = .missingReason }
  await declare.send(.reasonChanged("  ")) {
    $0.reason = "  "
  }
  await declare.send(.submitTapped)
  await declare.finish()
}
