import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMSupport
import ActorMVVMTesting
import EmbeddedBackend
import InterviewApp
import InterviewFeature
import LoginFeature
import Testing

@Suite("InterviewApp: routes and screens")
struct InterviewRouteTests {
  @Test("Routes: equal when they open the same screen type with the same number; names and flags from the type")
  func routes() {
    #expect(Route.report(termNo: 1) == Route(ReportScreen.self, parameter: 1))
    #expect(Route.report(termNo: 1) != .report(termNo: 2))
    #expect(Route.home != .intro)
    #expect(Set([Route.home, .home, .report(termNo: 1), .report(termNo: 1)]).count == 2)
    #expect(Route.report(termNo: 101).description == "report(101)")
    #expect(Route.findNumber.description == "findnumber")
    #expect(Route.myPage.isModal && !Route.weather.isModal)
    #expect(Route.messages.screen is any MemberScreen.Type && !(Route.directions.screen is any MemberScreen.Type))
    #expect(Route.declare(messageId: 3).opens(DeclareScreen.self))
    #expect(!Route.declare(messageId: 3).opens(MessagesScreen.self))
  }

  @Test("Every kind of screen is listed once in the composition root, under its own name")
  func registry() {
    let names = InterviewApp.screens.map { $0.name }
    #expect(Set(names).count == names.count)
    #expect(
      Set(names) == [
        "intro", "home", "weather", "login", "findnumber", "directions", "report", "messages", "declare", "mypage",
      ])
  }
}

@Suite("InterviewApp: observers and lifecycle", .testBubble)
struct InterviewObserverTests {
  /// Changes as their log lines.
  final class Changes: Sendable {
    private let lines = Locked<[String]>([])
    func record(_ change: NavigationChange) { lines.withLock { $0.append(change.description) } }
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
    #expect(try await app.handle(deepLink: "actormvvm://analysis-complete?memIdx=1&termNo=101") == .refused)
    await app.start()
    await app.finish()  // a second finish returns at once
    #expect(await app.state == final)
    #expect(await app.screens.isEmpty)
    #expect(
      changes.all.filter { $0.hasPrefix("refused") } == [
        "refused open(weather)", "refused back()", "refused deeplink", "refused start()",
      ])
    await counters.waitForFeatures(atMost: 0)  // a finished feature's drain may hold it a moment
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
