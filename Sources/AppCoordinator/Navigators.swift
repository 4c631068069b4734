import InterviewFeature
import LoginFeature

/// The article's `HomeNavigatorType`: where the member's screens (home,
/// report, messages, declare, my page) can lead. The home flow's child
/// coordinator implements it on the app coordinator; a test can implement
/// it to record where outputs lead.
public protocol HomeNavigating: Sendable {
  func toReport(termNo: Int) async
  func toMyPage() async
  func toDeclare(_ message: Message) async
  func declareFinished(_ result: DeclareResult) async
  func openURL(_ url: String) async
  func dismissToMain() async
  func toLogin() async
  func loggedOut() async
}

/// The article's `PopupNavigatorType`: the intro and the login popup.
public protocol PopupNavigating: Sendable {
  func toHome() async
  func toLogin() async
  func loggedIn(_ session: LoginSession) async
}

// MARK: Outputs → navigation, per flow

extension HomeNavigating {
  public func handle(_ output: HomeMachine.Output) async {
    switch output {
    case .openReport(let termNo): await toReport(termNo: termNo)
    case .openMyPage: await toMyPage()
    case .dismissToMain: await dismissToMain()
    case .sessionExpired: await toLogin()
    }
  }

  public func handle(_ output: ReportMachine.Output) async {
    switch output {
    case .sessionExpired: await toLogin()
    }
  }

  public func handle(_ output: MessagesMachine.Output) async {
    switch output {
    case .openDeclare(let message): await toDeclare(message)
    case .openURL(let url): await openURL(url)
    case .alert: break  // the view shows it; nothing navigates
    case .sessionExpired: await toLogin()
    }
  }

  public func handle(_ output: DeclareMachine.Output) async {
    switch output {
    case .finished(let result): await declareFinished(result)
    case .sessionExpired: await toLogin()
    }
  }

  public func handle(_ output: MyPageMachine.Output) async {
    switch output {
    case .loggedOut: await loggedOut()
    case .sessionExpired: await toLogin()
    }
  }
}

extension PopupNavigating {
  public func handle(_ output: IntroMachine.Output) async {
    switch output {
    case .showHome: await toHome()
    case .showLogin: await toLogin()
    }
  }

  public func handle(_ output: LoginMachine.Output) async {
    if case .loggedIn(let session) = output { await loggedIn(session) }
  }
}

// MARK: The child coordinators

/// The home flow's child coordinator: member screens' navigation, performed
/// on the app coordinator's stack.
struct HomeFlow: HomeNavigating {
  let app: AppCoordinator

  func toReport(termNo: Int) async { await app.present(.report(termNo: termNo)) }
  func toMyPage() async { await app.present(.myPage) }
  func toDeclare(_ message: Message) async {
    await app.pushScreen(
      .declare(messageId: message.messageId), Screen(DeclareScreen(message: message, container: app.container)))
  }
  func declareFinished(_ result: DeclareResult) async { await app.declareFinished(result) }
  func openURL(_ url: String) async { await app.openURL(url) }
  func dismissToMain() async { await app.dismissToMain() }
  func toLogin() async { await app.sessionExpired() }
  func loggedOut() async {
    await app.dismissToMain()
    await app.setRoot(.intro)
  }
}

/// The popup flow's child coordinator: the intro and the login popup.
struct PopupFlow: PopupNavigating {
  let app: AppCoordinator

  func toHome() async { await app.restoredHome() }
  func toLogin() async { await app.present(.login) }
  func loggedIn(_ session: LoginSession) async { await app.loggedIn(session) }
}
