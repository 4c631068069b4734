import InterviewFeature
import LoginFeature

/// The article's `HomeNavigatorType`: where the member's screens (home,
/// report, messages, declare, my page) can lead. ``InterviewFlow``'s home
/// navigator implements it on the coordinator; a test can implement it to
/// record where outputs lead.
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
/// ``InterviewFlow``'s popup navigator implements it on the coordinator.
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
