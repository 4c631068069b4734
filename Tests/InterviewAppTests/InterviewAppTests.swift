import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMNetworking
import ActorMVVMStorage
import ActorMVVMTesting
import EmbeddedBackend
import InterviewApp
import InterviewFeature
import LoginFeature
import Testing
import WeatherFeature

func makeCoordinator(
  counters: LifetimeCounters = LifetimeCounters(), clock: any Clock<Duration> = ContinuousClock(),
  latency: Duration = .zero, backend: EmbeddedBackend? = nil
) -> AppCoordinator<InterviewApp> {
  let backend = backend ?? EmbeddedBackend(.init(latency: latency, clock: clock))
  return AppCoordinator(
    InterviewApp(
      AppConfiguration(
        httpClient: backend, clock: clock, weatherbitKey: EmbeddedBackend.demoWeatherbitKey,
        naverCredentials: .init(
          clientID: EmbeddedBackend.demoNaverClientID, clientSecret: EmbeddedBackend.demoNaverClientSecret),
        counters: counters)))
}

extension AppCoordinator<InterviewApp> {
  /// The member's home, if it is the root.
  var home: Feature<HomeMachine>? { screens.first?.1.feature(HomeMachine.self) }

  func login(_ id: String, _ password: String) async {
    guard let login = topScreen?.feature(LoginMachine.self) else {
      Issue.record("expected the login screen on top, found \(state)")
      return
    }
    login.send(.idChanged(id))
    login.send(.passwordChanged(password))
    login.send(.loginTapped)
    await settle()
  }
}

@Suite("InterviewApp: flows through the coordinator", .testBubble)
struct InterviewCoordinatorFlowTests {
  @Test("start → intro → login → home")
  func startToHome() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.intro], modal: .login))
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: nil))
    guard let home = await coordinator.topScreen?.feature(HomeMachine.self) else {
      Issue.record("home is not on top")
      return
    }
    #expect(await home.state.member?.memIdx == 1)
    #expect(await home.state.unreadCount == 3)
    await coordinator.finish()
  }

  @Test("A login failure stays on login with the error")
  func loginFailure() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.login("alice", "wrong")
    #expect(await coordinator.state == NavigationState(stack: [.intro], modal: .login))
    guard let login = await coordinator.topScreen?.feature(LoginMachine.self) else {
      Issue.record("login is not on top")
      return
    }
    #expect(await login.state.errorMessage == "401 Error")
    await coordinator.finish()
  }

  @Test("Deep link: the right member's report opens; another member's dismisses to main; malformed navigates nowhere")
  func deepLinks() async throws {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    try await coordinator.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101")
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: .report(termNo: 101)))
    guard let report = await coordinator.topScreen?.feature(ReportMachine.self) else { return }
    #expect(await report.state.interview?.termNo == 101)

    try await coordinator.handle(deepLink: "actormvvm://analysis-complete?memIdx=2&termNo=201")
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: nil))

    try await coordinator.handle(deepLink: "actormvvm://expiration?days=7")
    await coordinator.settle()
    #expect(await coordinator.state.modal == .myPage)

    let before = await coordinator.state
    await #expect(throws: DeepLinkError.self) { try await coordinator.handle(deepLink: "https://evil.example") }
    #expect(await coordinator.state == before)
    await coordinator.finish()
  }

  @Test("A deep link before login is kept and handled after it, as the article's BehaviorSubject; login stays up")
  func deepLinkBeforeLogin() async throws {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    #expect(
      try await coordinator.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101") == .kept)
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.intro], modal: .login))
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: .report(termNo: 101)))
    await coordinator.finish()
  }

  @Test("After the session expires, a link waits for the next login even with the member's home still up")
  func deepLinkAfterExpiry() async throws {
    let backend = EmbeddedBackend()
    let coordinator = makeCoordinator(backend: backend)
    await coordinator.start()
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    // The server refuses the token: the home's next request ends the session.
    await backend.inject(.status(401, body: #"{"code":401,"message":"token expired"}"#), on: .interview)
    await coordinator.home?.send(.refreshUnreadTapped)
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: .login))
    #expect(
      try await coordinator.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101") == .kept)
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: .login))
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: .report(termNo: 101)))
    await coordinator.finish()
  }

  /// The embedded backend, with the intro's service check held until the test releases it.
  struct HeldServiceCheck: HTTPClient {
    let backend: EmbeddedBackend
    let arrived = TestGate()
    let release = TestGate()
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
      if request.url.path.hasSuffix("service/check") {
        arrived.open()
        await release.wait()
      }
      return try await backend.send(request)
    }
  }

  @Test("A relaunch restores the member only once the server honours the session; a link that came meanwhile waits")
  func restoredSession() async throws {
    let (appStore, serverStore) = (InMemoryKeyValueStore(), InMemoryKeyValueStore())
    func launch(_ client: any HTTPClient) -> AppCoordinator<InterviewApp> {
      AppCoordinator(
        InterviewApp(AppConfiguration(httpClient: client, store: appStore, weatherbitKey: nil, naverCredentials: nil)))
    }
    let first = launch(EmbeddedBackend(.init(stateStore: serverStore)))
    await first.start()
    await first.settle()
    await first.login("alice", "secret")
    await first.finish()

    // A new process: a new backend over the server's saved state, the app over its own.
    let held = HeldServiceCheck(backend: EmbeddedBackend(.init(stateStore: serverStore)))
    let second = launch(held)
    await second.start()
    await held.arrived.wait()  // the intro is checking: the stored session is not known valid yet
    #expect(
      try await second.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101") == .kept)
    #expect(await second.state == NavigationState(stack: [.intro], modal: nil))
    held.release.open()
    await second.settle()
    #expect(await second.state == NavigationState(stack: [.home], modal: .report(termNo: 101)))
    await second.finish()
  }

  @Test("A stored session the server no longer honours ends at login, and the stored tokens are forgotten")
  func refusedSession() async throws {
    let appStore = InMemoryKeyValueStore()
    func launch() -> AppCoordinator<InterviewApp> {
      AppCoordinator(
        InterviewApp(
          AppConfiguration(httpClient: EmbeddedBackend(), store: appStore, weatherbitKey: nil, naverCredentials: nil)))
    }
    let first = launch()
    await first.start()
    await first.settle()
    await first.login("alice", "secret")
    await first.finish()
    let second = launch()  // a backend that keeps nothing between launches
    await second.start()
    await second.settle()
    #expect(await second.state == NavigationState(stack: [.intro], modal: .login))
    #expect(await appStore.snapshot[SessionManager.storageKey] == nil)
    await second.finish()
  }

  @Test("Opening the declare screen by route fetches nothing: it needs only the message's id")
  func declareByRoute() async throws {
    let backend = EmbeddedBackend()
    let container = InterviewContainer(AppConfiguration(httpClient: backend, weatherbitKey: nil, naverCredentials: nil))
    await container.session.start(
      try await InterviewAuthService(client: backend).login(id: "alice", password: "secret"))
    let before = await backend.requestCount(.interview)
    let screen = Screen(await DeclareScreen(route: .declare(messageId: 13), dependencies: container))
    #expect(await backend.requestCount(.interview) == before)
    guard let declare = screen.feature(DeclareMachine.self) else {
      Issue.record("not the declare screen")
      return
    }
    #expect(await declare.state.message.messageId == 13)
    await screen.finish()
  }

  @Test("An unknown deep link does nothing (the article's default: break)")
  func unknownDeepLink() async throws {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    await coordinator.open(.messages)
    await coordinator.settle()
    let before = await coordinator.state
    #expect(try await coordinator.handle(deepLink: "actormvvm://nope") == .delivered)
    await coordinator.settle()
    #expect(await coordinator.state == before)
    await coordinator.finish()
  }

  @Test("Backing out of the login a member-only route asked for forgets that route (issue #48)")
  func backForgetsTheKeptRoute() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.open(.messages)  // nobody logged in: the flow keeps it and shows login
    await coordinator.settle()
    #expect(await coordinator.state.modal == .login)
    #expect(await coordinator.back())  // the user gives up
    await coordinator.settle()
    await coordinator.open(.login)  // later, from elsewhere
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: nil))
    await coordinator.finish()
  }

  @Test("Logging in as another member resets the member's screens; the same member keeps them")
  func memberChange() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    await coordinator.open(.messages)
    await coordinator.open(.login)
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home, .messages], modal: nil))
    await coordinator.open(.login)
    await coordinator.settle()
    await coordinator.login("bob", "hunter2")
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: nil))
    guard let home = await coordinator.topScreen?.feature(HomeMachine.self) else { return }
    #expect(await home.state.member?.id == "bob")
    await coordinator.finish()
  }

  @Test("Opening home with nobody logged in goes through login")
  func homeNeedsMember() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.back()
    await coordinator.open(.home)
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.intro], modal: .login))
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home], modal: nil))
    await coordinator.finish()
  }

  @Test("Opening a member screen without a member goes through login, then opens it")
  func pendingRoute() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.back()  // close the login the intro opened
    await coordinator.open(.weather)
    await coordinator.settle()
    #expect(await coordinator.state == NavigationState(stack: [.intro, .weather], modal: nil))
    await coordinator.open(.messages)
    #expect(await coordinator.state.modal == .login)
    await coordinator.login("alice", "secret")
    #expect(await coordinator.state == NavigationState(stack: [.home, .messages], modal: nil))
    await coordinator.finish()
  }

  @Test("Messages → declare → back to the room with an URL to open")
  func declare() async throws {
    let coordinator = makeCoordinator()
    var events = coordinator.events.values.makeAsyncIterator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.login("alice", "secret")
    await coordinator.open(.messages)
    await coordinator.settle()
    guard let room = await coordinator.topScreen?.feature(MessagesMachine.self) else { return }
    room.send(.declareTapped(messageId: 13))
    await coordinator.settle()
    #expect(await coordinator.state.stack == [.home, .messages, .declare(messageId: 13)])
    guard let declare = await coordinator.topScreen?.feature(DeclareMachine.self) else { return }
    #expect(await declare.state.message.text.contains("광고"))
    declare.send(.reasonChanged("spam"))
    declare.send(.submitTapped)
    await coordinator.settle()
    #expect(await coordinator.state.stack == [.home, .messages])
    var seen: [NavigationEvent] = []
    while let event = await events.next() {
      seen.append(event)
      if case .openURL = event { break }
    }
    #expect(seen.last == .openURL("https://help.interview.example/declare/13"))
    await coordinator.finish()
  }

  @Test("Navigation never pops below the root and never stacks two modals")
  func invariants() async {
    let coordinator = makeCoordinator()
    await coordinator.start()
    await coordinator.settle()
    await coordinator.open(.login)
    await coordinator.open(.login)
    #expect(await coordinator.state.modal == .login)
    #expect(await coordinator.back())
    #expect(await coordinator.back() == false)
    #expect(await coordinator.state.stack == [.intro])
    await coordinator.finish()
  }
}

@Suite("InterviewApp: lifecycle", .testBubble)
struct InterviewLifecycleTests {
  @Test("1,000 rapid push/pop cycles with effects in flight leave nothing alive", .timeLimit(.minutes(1)))
  func pushPopChurn() async {
    let counters = LifetimeCounters()
    let clock = TestClock()
    let coordinator = makeCoordinator(counters: counters, clock: clock, latency: .seconds(5))
    await coordinator.open(.intro)
    for cycle in 0..<1_000 {
      await coordinator.open(cycle.isMultiple(of: 2) ? .weather : .findNumber)  // effects sleep on the clock
      await coordinator.back()
    }
    #expect(await coordinator.state.stack == [.intro])
    await coordinator.finish()
    #expect(counters.effects == 0)
    #expect(counters.bindings == 0)
    #expect(counters.subscriptions == 0)
    #expect(clock.sleeperCount == 0)
    // A popped feature's scheduled drain may hold it a moment past its finish.
    await counters.waitForFeatures(atMost: 0)
  }
}

/// The README's "drive the app from async Swift" example, compiled and run.
@Test("README: the REPL tour's flow, driven from async Swift through AppCoordinator")
func readmeCoordinatorExample() async throws {
  let backend = EmbeddedBackend()
  let app = AppCoordinator(
    InterviewApp(
      AppConfiguration(httpClient: backend, weatherbitKey: EmbeddedBackend.demoWeatherbitKey, naverCredentials: nil)))
  await app.start()
  await app.settle()  // intro → login (nobody is logged in)
  guard let login = await app.topScreen?.feature(LoginMachine.self) else { return }
  login.send(.idChanged("alice"))
  login.send(.passwordChanged("secret"))
  login.send(.loginTapped)
  await app.settle()  // login → home
  await app.open(.weather)
  guard let weather = await app.topScreen?.feature(WeatherMachine.self) else { return }
  weather.send(.cityEntered("Richmond, VA"))
  await app.settle()
  #expect(await weather.state.summary == "Broken clouds - 72℉")
  try await app.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101")
  await app.settle()
  #expect(await app.state == NavigationState(stack: [.home, .weather], modal: .report(termNo: 101)))
  await app.finish()
}
