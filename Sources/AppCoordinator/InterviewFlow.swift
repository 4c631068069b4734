import ActorMVVM
import InterviewFeature
import LoginFeature

/// The interview app's rules (the job-interview article's coordinator):
/// it starts on the intro; a route that needs a member goes through login
/// first and opens once login succeeds; a deep link goes to the member's
/// home, or is kept (the latest one) until a member's home is up — as the
/// article's `BehaviorSubject` trigger replays its last link to a new
/// subscriber; an expired session logs out and presents login; the
/// same member logging in again keeps their screens, anyone else starts
/// from a fresh home; a finished declaration pops back to its room.
///
/// - **Isolation:** a `Sendable` class whose rules run on the coordinator's
///   actor (``AppFlow``): what it keeps (a route and a link waiting for
///   login) sits in a lock taken only there, so the lock is never
///   contended; it exists so the class is `Sendable` without
///   `@unchecked`.
/// - **Lifetime:** one per coordinator; what it keeps is dropped with it.
public final class InterviewFlow: AppFlow {
  private struct Kept {
    /// A route that needed a member, opened once login succeeds.
    var route: Route?
    /// The latest deep link that came before a member's home was up.
    var link: DeepLink?
  }

  private let kept = Locked(Kept())

  public init() {}

  public func start(in app: isolated AppCoordinator) async { await app.show(.intro) }

  public func open(_ route: Route, in app: isolated AppCoordinator) async -> OpenDecision {
    guard route.needsMember, await app.container.session.currentUser() == nil else { return .show }
    kept.withLock { $0.route = route }
    await app.show(.login)
    return .handled
  }

  /// Reads an `actormvvm://` link (``DeepLink``) and hands it, with the
  /// member logged in now, to the member's home, which decides where it
  /// leads (the article's rules: another member's link dismisses to main,
  /// an unknown one does nothing). With nobody logged in, or no home up
  /// (the intro still checking a stored session), it is kept.
  /// - Throws: ``DeepLinkError`` for a malformed link; nothing navigates.
  public func handle(deepLink text: String, in app: isolated AppCoordinator) async throws(DeepLinkError)
    -> AppCoordinator.DeepLinkDisposition
  {
    let link = try DeepLink(parsing: text)
    let member = await app.container.session.currentUser()
    guard let member, let home = app.rootFeature(HomeMachine.self) else {
      kept.withLock { $0.link = link }
      return .kept
    }
    home.send(.deepLinkReceived(link, member: member))
    await home.flush()
    return .delivered
  }

  /// The member's screens' navigator (home, report, messages, declare,
  /// my page): where their outputs lead, on `app`.
  public static func home(on app: AppCoordinator) -> some HomeNavigating { HomeNavigator(app: app) }

  /// The intro's and the login popup's navigator, on `app`.
  public func popups(on app: AppCoordinator) -> some PopupNavigating { PopupNavigator(app: app, flow: self) }

  // MARK: The rules the navigators apply

  func loggedIn(_ session: LoginSession, in app: isolated AppCoordinator) async {
    // A login that lands after finish() began must not store a session.
    guard app.accepts("loggedIn") else { return }
    await app.container.session.start(session)
    await app.dismissModal()
    // The same member (back after an expired session) keeps their screens;
    // anyone else starts from a fresh home, none of the last member's screens kept.
    if let home = app.rootFeature(HomeMachine.self), await home.state.member?.memIdx == session.user.memIdx {
      home.send(.appeared)
    } else {
      await app.show(.home)
    }
    if let route = kept.withLock({ kept in
      defer { kept.route = nil }; return kept.route
    }) {
      await app.open(route)
    }
    deliverKeptLink(in: app, member: session.user)
  }

  /// The intro restored a member whose session the server renewed: their
  /// home, then the link kept while the intro was checking.
  func restoredHome(in app: isolated AppCoordinator) async {
    let member = await app.container.session.currentUser()
    await app.show(.home)
    if let member { deliverKeptLink(in: app, member: member) }
  }

  private func deliverKeptLink(in app: isolated AppCoordinator, member: User) {
    guard let home = app.rootFeature(HomeMachine.self),
      let link = kept.withLock({ kept in
        defer { kept.link = nil }; return kept.link
      })
    else { return }
    home.send(.deepLinkReceived(link, member: member))
  }

  static func sessionExpired(in app: isolated AppCoordinator) async {
    guard app.accepts("sessionExpired") else { return }
    await app.container.session.logout()
    await app.show(.login)
  }

  static func declareFinished(_ result: DeclareResult, in app: isolated AppCoordinator) async {
    guard app.state.stack.last?.opens(DeclareScreen.self) == true else { return }
    await app.pop()
    let room = app.screens.last { route, _ in !route.isModal }?.1
    room?.feature(MessagesMachine.self)?.send(.declareFinished(result))
  }
}

/// The home flow's child coordinator: the member's screens' navigation,
/// performed on the coordinator.
struct HomeNavigator: HomeNavigating {
  let app: AppCoordinator

  func toReport(termNo: Int) async { await app.show(.report(termNo: termNo)) }
  func toMyPage() async { await app.show(.myPage) }
  func toDeclare(_ message: Message) async {
    await app.show(
      .declare(messageId: message.messageId), screen: Screen(DeclareScreen(message: message, container: app.container)))
  }
  func declareFinished(_ result: DeclareResult) async { await InterviewFlow.declareFinished(result, in: app) }
  func openURL(_ url: String) async { await app.openURL(url) }
  func dismissToMain() async { await app.dismissToMain() }
  func toLogin() async { await InterviewFlow.sessionExpired(in: app) }
  func loggedOut() async {
    await app.dismissToMain()
    await app.show(.intro)
  }
}

/// The popup flow's child coordinator: the intro and the login popup.
struct PopupNavigator: PopupNavigating {
  let app: AppCoordinator
  let flow: InterviewFlow

  func toHome() async { await flow.restoredHome(in: app) }
  func toLogin() async { await app.show(.login) }
  func loggedIn(_ session: LoginSession) async { await flow.loggedIn(session, in: app) }
}
