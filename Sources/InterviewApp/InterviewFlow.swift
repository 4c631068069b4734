import ActorMVVMCoordinator
import FindNumberFeature
import InterviewFeature
import LoginFeature

/// Every output the interview app's screens emit, one case per kind of
/// screen that emits any (weather and directions emit none): what
/// ``InterviewFlow`` switches over.
public enum InterviewOutput: Sendable {
  case intro(IntroMachine.Output)
  case login(LoginMachine.Output)
  case home(HomeMachine.Output)
  case report(ReportMachine.Output)
  case messages(MessagesMachine.Output)
  case declare(DeclareMachine.Output)
  case myPage(MyPageMachine.Output)
  case findNumber(FindNumberMachine.Output)
}

/// A screen only a logged-in member may open: opening it with nobody
/// logged in goes through login first (``InterviewFlow``).
public protocol MemberScreen: AppScreen {}

/// The interview app's rules (the job-interview article's coordinator), as
/// a pure machine (``AppFlow``):
///
/// - it starts on the intro; the intro leads to the restored member's home
///   or to login;
/// - a route that needs a member (``MemberScreen``) with nobody logged in
///   presents login and is kept; it opens once login succeeds;
/// - a deep link goes to the member's home, which decides where it leads;
///   with nobody logged in or no home up (the intro still checking a stored
///   session) the latest one is kept and handed over once a home is up — as
///   the article's `BehaviorSubject` replays its last link;
/// - an expired session logs out and presents login; the same member
///   logging in again keeps their screens, anyone else starts from a fresh
///   home;
/// - a finished declaration pops back to its room, which is told the result;
///   logging out from my page goes back to the intro.
///
/// The member's screens' outputs are the article's `HomeNavigator`; the
/// intro's and login's its `PopupNavigator`: here each is one case of an
/// exhaustive switch over ``InterviewOutput``.
public struct InterviewFlow: AppFlow {
  /// What the app keeps between steps.
  public struct State: Equatable, Sendable {
    /// Who is logged in, as navigation knows it (set by login or a
    /// restored session; cleared by logout or an expired session).
    public var member: User?
    /// The member whose home is the root, if one is.
    public var homeMember: User?
    /// A route that needed a member, opened once login succeeds.
    public var keptRoute: Route?
    /// The latest deep link that came before a member's home was up.
    public var keptLink: DeepLink?

    public init(member: User? = nil, homeMember: User? = nil, keptRoute: Route? = nil, keptLink: DeepLink? = nil) {
      self.member = member
      self.homeMember = homeMember
      self.keptRoute = keptRoute
      self.keptLink = keptLink
    }
  }

  /// The work a step asks of the app beside navigation.
  public enum Chore: Equatable, Sendable {
    /// Store a session that just logged in (before the member's home is built).
    case startSession(LoginSession)
    /// Forget the session (it expired).
    case logout
  }

  public typealias Command = NavigationCommand<Chore>
  public typealias Link = DeepLink
  public typealias Output = InterviewOutput

  public init() {}

  public var initialState: State { State() }

  public func parse(deepLink text: String) throws(DeepLinkError) -> DeepLink { try DeepLink(parsing: text) }

  public func reduce(into state: inout State, _ event: Event, navigation: NavigationState) -> [Command] {
    switch event {
    case .start:
      return [.show(.intro)]
    case .open(let route):
      return open(route, &state)
    case .deepLink(let link):
      guard let member = state.member, navigation.root == .home else {
        state.keptLink = link
        return []
      }
      return [.send(Payload(HomeMachine.Input.deepLinkReceived(link, member: member)), to: .home)]
    case .output(let output, _):
      return reduce(output, into: &state, navigation: navigation)
    case .back(let route):
      // Backing out of the login a member-only route asked for gives that route up.
      if route.opens(LoginScreen.self) { state.keptRoute = nil }
      return []
    }
  }

  private func open(_ route: Route, _ state: inout State) -> [Command] {
    guard route.screen is any MemberScreen.Type, state.member == nil else { return [.show(route)] }
    state.keptRoute = route
    return [.show(.login)]
  }

  private func reduce(_ output: InterviewOutput, into state: inout State, navigation: NavigationState) -> [Command] {
    switch output {
    case .intro(.showHome(let member)):
      state.member = member
      state.homeMember = member
      return [.show(.home)] + deliverKeptLink(&state, to: member)
    case .intro(.showLogin):
      return [.show(.login)]
    case .intro(.sessionExpired):
      return [.show(.login, with: Payload(LoginReason.sessionExpired))]
    case .login(.loggedIn(let session)):
      return loggedIn(session, &state, navigation: navigation)
    case .login(.failed):
      return []  // the login screen shows it; nothing navigates
    case .home(.openReport(let termNo)):
      return [.show(.report(termNo: termNo))]
    case .home(.openMyPage):
      return [.show(.myPage)]
    case .home(.dismissToMain):
      return [.dismissToMain]
    case .messages(.openDeclare(let message)):
      return [.show(.declare(messageId: message.messageId), with: Payload(message))]
    case .messages(.openURL(let url)):
      return [.openURL(url)]
    case .messages(.alert):
      return []  // the view shows it; nothing navigates
    case .declare(.finished(let result)):
      guard navigation.stack.last?.opens(DeclareScreen.self) == true, let room = navigation.stack.dropLast().last
      else { return [] }
      return [.pop, .send(Payload(MessagesMachine.Input.declareFinished(result)), to: room)]
    case .myPage(.loggedOut):
      state.member = nil
      state.homeMember = nil
      return [.dismissToMain, .show(.intro)]
    case .home(.sessionExpired), .report(.sessionExpired), .messages(.sessionExpired), .declare(.sessionExpired),
      .myPage(.sessionExpired):
      return expired(&state)
    case .findNumber:
      return []  // its errors are shown on the screen; nothing navigates
    }
  }

  /// Stores the session; the same member (back after an expired session)
  /// keeps their screens, anyone else starts from a fresh home; then what
  /// waited for login.
  private func loggedIn(_ session: LoginSession, _ state: inout State, navigation: NavigationState) -> [Command] {
    let member = session.user
    state.member = member
    var commands: [Command] = [.perform(.startSession(session)), .dismissModal]
    if navigation.root == .home, state.homeMember?.memIdx == member.memIdx {
      commands.append(.send(Payload(HomeMachine.Input.appeared), to: .home))
    } else {
      commands.append(.show(.home))
    }
    state.homeMember = member
    if let route = state.keptRoute {
      state.keptRoute = nil
      commands += open(route, &state)
    }
    return commands + deliverKeptLink(&state, to: member)
  }

  private func deliverKeptLink(_ state: inout State, to member: User) -> [Command] {
    guard let link = state.keptLink else { return [] }
    state.keptLink = nil
    return [.send(Payload(HomeMachine.Input.deepLinkReceived(link, member: member)), to: .home)]
  }

  private func expired(_ state: inout State) -> [Command] {
    state.member = nil
    return [.perform(.logout), .show(.login, with: Payload(LoginReason.sessionExpired))]
  }
}
