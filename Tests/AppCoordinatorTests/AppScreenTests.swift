import ActorMVVM
import EmbeddedBackend
import LoginFeature
import Testing

@testable import AppCoordinator

/// A screen the app module has never heard of: it counts taps, and its
/// `.close` output goes back.
struct TallyMachine: StateMachine {
  enum Input: Sendable { case appeared, tapped, closeTapped }
  enum Output: Sendable { case close }
  struct State: Equatable, Sendable {
    var appearances = 0
    var taps = 0
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared: state.appearances += 1
    case .tapped: state.taps += 1
    case .closeTapped: return .emit(.close)
    }
    return .none
  }
}

struct TallyScreen: AppScreen {
  static let name = "tally"
  static let presentation = Presentation.push
  static let parameterName: String? = "start"
  let feature: Feature<TallyMachine>

  init(route: Route, container: AppContainer) async {
    feature = container.feature(
      TallyMachine(), .init(taps: route.parameter ?? 0), name: Self.name)
  }

  var firstInput: TallyMachine.Input? { .appeared }

  static func handle(_ output: TallyMachine.Output, in app: AppCoordinator) async {
    switch output {
    case .close: await app.back()
    }
  }
}

@Suite("AppCoordinator: screens as types")
struct AppScreenTests {
  @Test("A screen type from outside the app opens, appears once, navigates by its outputs, and finishes when popped")
  func aNewScreenIsOneType() async {
    let app = makeCoordinator()
    await app.start()
    await app.settle()
    let route = Route(TallyScreen.self, parameter: 5)
    await app.open(route)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.intro, route]))
    #expect(route.description == "tally(5)")
    guard let tally = await app.topScreen?.feature(TallyMachine.self) else {
      Issue.record("the tally screen is not on top: \(await app.state)")
      return
    }
    #expect(await tally.state == .init(appearances: 1, taps: 5))
    #expect(await app.topScreen?.feature(TallyMachine.self) === tally)
    #expect(await app.topScreen?.feature(WrongMachine.self) == nil)
    tally.send(.closeTapped)
    await app.settle()
    #expect(await app.state == NavigationState(stack: [.intro]))
    tally.send(.tapped)  // after the pop: the feature is finished, so this is dropped
    #expect(tally.droppedInputCount == 1)
    #expect(await tally.state.taps == 5)
    await app.finish()
  }

  @Test("Routes: equal when they open the same screen type with the same number; names and flags from the type")
  func routes() {
    #expect(Route.report(termNo: 1) == Route(ReportScreen.self, parameter: 1))
    #expect(Route.report(termNo: 1) != .report(termNo: 2))
    #expect(Route.home != .intro)
    #expect(Set([Route.home, .home, .report(termNo: 1), .report(termNo: 1)]).count == 2)
    #expect(Route.report(termNo: 101).description == "report(101)")
    #expect(Route.findNumber.description == "findnumber")
    #expect(Route.myPage.isModal && !Route.weather.isModal)
    #expect(Route.messages.needsMember && !Route.directions.needsMember)
    #expect(Route.declare(messageId: 3).opens(DeclareScreen.self))
    #expect(!Route.declare(messageId: 3).opens(MessagesScreen.self))
  }

  @Test("Every kind of screen is listed once in the composition root, under its own name")
  func registry() {
    let names = AppContainer.screens.map { $0.name }
    #expect(Set(names).count == names.count)
    #expect(
      Set(names) == [
        "intro", "home", "weather", "login", "findnumber", "directions", "report", "messages", "declare", "mypage",
      ])
  }
}

/// A machine no screen runs.
struct WrongMachine: StateMachine {
  func reduce(into state: inout Int, _ input: Int) -> Effect<Int, Never> { .none }
}

@Suite("AppCoordinator: observers")
struct AppCoordinatorObserverTests {
  /// Changes as lines: `→ event [stack | modal]` and `screen ! output`.
  final class Changes: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ change: AppCoordinator.Change) {
      let line =
        switch change {
        case .navigation(let event, let state):
          "→ \(event) [\(state.stack.map(\.description).joined(separator: ",")) | \(state.modal?.description ?? "-")]"
        case .output(let route, let output): "\(route) ! \(output)"
        case .refused(let what): "refused \(what)"
        }
      lines.withLock { $0.append(line) }
    }
    var all: [String] { lines.withLock { $0 } }
  }

  @Test("Lifecycle: idle, running, finished; after finish() every command is refused, says so, and changes nothing")
  func refusedAfterFinish() async throws {
    let counters = LifetimeCounters()
    let app = makeCoordinator(counters: counters)
    #expect(await app.lifecycle == .idle)
    await app.start()
    await app.settle()
    #expect(await app.lifecycle == .running)
    let changes = Changes()
    await app.observe { changes.record($0) }
    await app.finish()
    #expect(await app.lifecycle == .finished)
    let final = await app.state
    await app.open(.weather)
    #expect(await app.back() == false)
    await app.dismissToMain()
    #expect(try await app.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101") == .refused)
    await app.start()
    await app.finish()  // a second finish returns at once
    #expect(await app.state == final)
    #expect(await app.screens.isEmpty)
    #expect(
      changes.all.filter { $0.hasPrefix("refused") } == [
        "refused open(weather)", "refused back()", "refused dismissToMain()", "refused deeplink", "refused start()",
      ])
    #expect(counters.features == 0)
    // A login whose output lands after finish() began stores no session.
    let session = LoginSession(
      user: User(id: "alice", name: "Alice", memIdx: 1),
      tokens: TokenPair(accessToken: "a", refreshToken: "r", expiresIn: 3_600))
    await app.flow(InterviewFlow.self)?.popups(on: app).loggedIn(session)
    #expect(await app.container.session.currentUser() == nil)
    #expect(changes.all.last == "refused loggedIn")
  }

  @Test("An observer sees every navigation with the state after it, and each output before the navigation it causes")
  func observerOrder() async {
    let app = makeCoordinator()
    let first = Changes()
    await app.observe { first.record($0) }
    await app.start()
    await app.settle()
    let second = Changes()
    await app.observe { second.record($0) }
    await app.login("alice", "secret")
    await app.open(.weather)
    #expect(await app.back())
    await app.settle()
    let afterStart = ["→ root intro [intro | -]", "intro ! showLogin", "→ present login [intro | login]"]
    let afterLogin = [
      "login ! loggedIn", "→ dismiss login [intro | -]", "→ root home [home | -]", "→ push weather [home,weather | -]",
      "→ pop weather [home | -]",
    ]
    #expect(first.all.count == afterStart.count + afterLogin.count)
    #expect(Array(first.all.prefix(afterStart.count)) == afterStart)
    #expect(Array(first.all.dropFirst(afterStart.count)) == second.all)
    #expect(second.all.map { $0.hasPrefix("login ! loggedIn") ? "login ! loggedIn" : $0 } == afterLogin)
    await app.finish()
  }
}
