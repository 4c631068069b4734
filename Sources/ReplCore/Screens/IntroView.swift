import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import InterviewFeature

/// The intro: the service check's progress; retry, or go to login.
extension IntroScreen: ScreenView {
  static var opensByName: Bool { false }

  func commands() -> [ScreenCommand] {
    [
      .sending("retry", .appeared, to: feature),
      .sending("login", .loginTapped, to: feature),
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("isChecking", .bool(state.isChecking)), ("notice", FieldValue.optional(state.notice, JSONValue.string)),
      ("error", FieldValue.error(state.error)),
    ]
  }
}
