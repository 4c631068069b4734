import ActorMVVMCoordinator
import FindNumberFeature
import InterviewApp
import InterviewFeature
import LoginFeature
import Testing

/// The interview app's rules, one event at a time, on the pure machine: no
/// coordinator, no screens, no awaits. Each step's commands are applied to
/// the navigation state as the coordinator would commit them.
@Suite("InterviewFlow: the rules, synchronously")
struct InterviewFlowTests {
  typealias Command = InterviewFlow.Command

  /// The machine, its state, and where its commands have led.
  struct Driver {
    let flow = InterviewFlow()
    var state = InterviewFlow.State()
    var navigation = NavigationState()

    mutating func send(_ event: InterviewFlow.Event) -> [Command] {
      let commands = flow.reduce(into: &state, event, navigation: navigation)
      navigation = navigation.applying(commands)
      return commands
    }

    mutating func output(_ value: any Sendable, from route: Route) -> [Command] {
      send(.output(InterviewOutput(value), from: route))
    }

    /// Started, and alice logged in from the login popup: her home is the root.
    static func loggedIn() -> Driver {
      var driver = Driver()
      _ = driver.send(.start)
      _ = driver.output(IntroMachine.Output.showLogin, from: .intro)
      _ = driver.output(LoginMachine.Output.loggedIn(alice), from: .login)
      return driver
    }
  }

  static let alice = LoginSession(
    user: User(id: "alice", name: "Alice", memIdx: 1),
    tokens: TokenPair(accessToken: "a", refreshToken: "r", expiresIn: 60))
  static let bob = LoginSession(
    user: User(id: "bob", name: "Bob", memIdx: 2), tokens: TokenPair(accessToken: "b", refreshToken: "s", expiresIn: 60)
  )
  var alice: LoginSession { Self.alice }
  let link = DeepLink.analysisComplete(memIdx: 1, termNo: 101)
  var linkToHome: Command { .send(Payload(HomeMachine.Input.deepLinkReceived(link, member: alice.user)), to: .home) }

  @Test("Start shows the intro; the intro leads to login, or to the restored member's home")
  func start() {
    var driver = Driver()
    #expect(driver.send(.start) == [.show(.intro)])
    #expect(driver.output(IntroMachine.Output.showLogin, from: .intro) == [.show(.login)])
    #expect(driver.navigation == NavigationState(stack: [.intro], modal: .login))
    var restored = Driver()
    _ = restored.send(.start)
    #expect(restored.output(IntroMachine.Output.showHome(alice.user), from: .intro) == [.show(.home)])
    #expect(restored.state.member == alice.user)
  }

  @Test("Login stores the session before the home is built, dismisses itself, and shows a fresh home")
  func login() {
    var driver = Driver()
    _ = driver.send(.start)
    _ = driver.output(IntroMachine.Output.showLogin, from: .intro)
    #expect(
      driver.output(LoginMachine.Output.loggedIn(alice), from: .login) == [
        .perform(.startSession(alice)), .dismissModal, .show(.home),
      ])
    #expect(driver.navigation == NavigationState(stack: [.home]))
  }

  @Test("A member-only route with nobody logged in goes through login, then opens; others open at once")
  func memberOnlyRoute() {
    var driver = Driver()
    _ = driver.send(.start)
    #expect(driver.send(.open(.weather)) == [.show(.weather)])
    #expect(driver.send(.open(.messages)) == [.show(.login)])
    #expect(driver.state.keptRoute == .messages)
    #expect(
      driver.output(LoginMachine.Output.loggedIn(alice), from: .login) == [
        .perform(.startSession(alice)), .dismissModal, .show(.home), .show(.messages),
      ])
    #expect(driver.state.keptRoute == nil)
    #expect(driver.send(.open(.report(termNo: 3))) == [.show(.report(termNo: 3))])
  }

  @Test("Back from the login a member-only route waits for gives the route up; back from elsewhere keeps it")
  func backGivesUpTheKeptRoute() {
    var driver = Driver()
    _ = driver.send(.start)
    _ = driver.send(.open(.messages))
    #expect(driver.send(.back(from: .weather)) == [])
    #expect(driver.state.keptRoute == .messages)
    #expect(driver.send(.back(from: .login)) == [])
    #expect(driver.state.keptRoute == nil)
  }

  @Test("A link before login is kept, and handed to the home once login shows it")
  func linkBeforeLogin() {
    var driver = Driver()
    _ = driver.send(.start)
    #expect(driver.send(.deepLink(link)) == [])
    #expect(driver.state.keptLink == link)
    _ = driver.output(IntroMachine.Output.showLogin, from: .intro)
    #expect(driver.send(.deepLink(link)) == [])  // still nobody: the latest is kept
    #expect(
      driver.output(LoginMachine.Output.loggedIn(alice), from: .login) == [
        .perform(.startSession(alice)), .dismissModal, .show(.home), linkToHome,
      ])
    #expect(driver.state.keptLink == nil)
  }

  @Test("A link while the intro checks a stored session waits for the restored home")
  func linkWhileRestoring() {
    var driver = Driver()
    _ = driver.send(.start)
    #expect(driver.send(.deepLink(link)) == [])
    #expect(driver.output(IntroMachine.Output.showHome(alice.user), from: .intro) == [.show(.home), linkToHome])
  }

  @Test("A link through an expired session waits for the next login; the same member keeps their screens")
  func linkThroughExpiry() {
    var driver = Driver.loggedIn()
    #expect(driver.send(.deepLink(link)) == [linkToHome])
    _ = driver.send(.open(.messages))
    #expect(
      driver.output(MessagesMachine.Output.sessionExpired, from: .messages) == [
        .perform(.logout), .show(.login, with: Payload(LoginReason.sessionExpired)),
      ])
    #expect(driver.navigation == NavigationState(stack: [.home, .messages], modal: .login))
    #expect(driver.send(.deepLink(link)) == [])  // the home is up, but nobody is logged in
    #expect(
      driver.output(LoginMachine.Output.loggedIn(alice), from: .login) == [
        .perform(.startSession(alice)), .dismissModal, .send(Payload(HomeMachine.Input.appeared), to: .home),
        linkToHome,
      ])
    #expect(driver.navigation == NavigationState(stack: [.home, .messages]))
  }

  @Test("Another member logging in after an expiry starts from a fresh home, none of the last member's screens kept")
  func anotherMember() {
    var driver = Driver.loggedIn()
    _ = driver.send(.open(.messages))
    _ = driver.output(HomeMachine.Output.sessionExpired, from: .home)
    #expect(
      driver.output(LoginMachine.Output.loggedIn(Self.bob), from: .login) == [
        .perform(.startSession(Self.bob)), .dismissModal, .show(.home),
      ])
    #expect(driver.navigation == NavigationState(stack: [.home]))
    #expect(driver.state.homeMember == Self.bob.user)
  }

  @Test("The member's screens: each output leads where the article's home navigator led")
  func homeNavigator() {
    var driver = Driver.loggedIn()
    #expect(driver.output(HomeMachine.Output.openReport(termNo: 101), from: .home) == [.show(.report(termNo: 101))])
    #expect(driver.output(HomeMachine.Output.openMyPage, from: .home) == [.show(.myPage)])
    #expect(driver.output(HomeMachine.Output.dismissToMain, from: .home) == [.dismissToMain])
    let message = Message(messageId: 13, sender: "HR", text: "hi", sentAt: "")
    #expect(
      driver.output(MessagesMachine.Output.openDeclare(message), from: .messages) == [
        .show(.declare(messageId: 13), with: Payload(message))
      ])
    #expect(driver.output(MessagesMachine.Output.openURL("https://x"), from: .messages) == [.openURL("https://x")])
    #expect(driver.output(MessagesMachine.Output.alert(.declareComplete), from: .messages) == [])
    for expired in [
      driver.output(ReportMachine.Output.sessionExpired, from: .report(termNo: 1)),
      driver.output(DeclareMachine.Output.sessionExpired, from: .declare(messageId: 1)),
      driver.output(MyPageMachine.Output.sessionExpired, from: .myPage),
    ] {
      #expect(expired == [.perform(.logout), .show(.login, with: Payload(LoginReason.sessionExpired))])
    }
  }

  @Test("A finished declaration pops back to its room, which is told the result; nowhere else does it navigate")
  func declarePops() {
    var driver = Driver.loggedIn()
    _ = driver.send(.open(.messages))
    _ = driver.send(.open(.declare(messageId: 13)))
    #expect(
      driver.output(DeclareMachine.Output.finished(.completed), from: .declare(messageId: 13)) == [
        .pop, .send(Payload(MessagesMachine.Input.declareFinished(.completed)), to: .messages),
      ])
    #expect(driver.navigation == NavigationState(stack: [.home, .messages]))
    // Declare no longer on top (a late output): nothing.
    #expect(driver.output(DeclareMachine.Output.finished(.completed), from: .declare(messageId: 13)) == [])
  }

  @Test("Logging out from my page goes back to the intro, forgetting the member")
  func logout() {
    var driver = Driver.loggedIn()
    _ = driver.send(.open(.myPage))
    #expect(driver.output(MyPageMachine.Output.loggedOut, from: .myPage) == [.dismissToMain, .show(.intro)])
    #expect(driver.navigation == NavigationState(stack: [.intro]))
    #expect(driver.state.member == nil && driver.state.homeMember == nil)
    #expect(driver.send(.open(.home)) == [.show(.login)])
  }

  @Test("Screens that never navigate: findnumber's output leads nowhere (weather and directions emit none)")
  func silentScreens() {
    var driver = Driver.loggedIn()
    let before = driver.navigation
    #expect(driver.output(FindNumberMachine.Output.error(.networkError), from: .findNumber) == [])
    #expect(driver.navigation == before)
  }

  @Test("Links: the app's own form, or its typed error")
  func parse() throws {
    #expect(try InterviewFlow().parse(deepLink: "actormvvm://expiration?days=3") == .expiration3d)
    #expect(throws: DeepLinkError.malformed("https://x")) { try InterviewFlow().parse(deepLink: "https://x") }
  }
}

extension InterviewOutput {
  /// A screen's output as the app's, the case found by its machine's type
  /// (what the coordinator does with each screen's `appOutput`).
  init(_ value: any Sendable) {
    switch value {
    case let output as IntroMachine.Output: self = .intro(output)
    case let output as LoginMachine.Output: self = .login(output)
    case let output as HomeMachine.Output: self = .home(output)
    case let output as ReportMachine.Output: self = .report(output)
    case let output as MessagesMachine.Output: self = .messages(output)
    case let output as DeclareMachine.Output: self = .declare(output)
    case let output as MyPageMachine.Output: self = .myPage(output)
    case let output as FindNumberMachine.Output: self = .findNumber(output)
    default: preconditionFailure("\(type(of: value)) is no screen's output")
    }
  }
}
