import ActorMVVM
import AppCoordinator
import InterviewFeature
import Storage

/// The intro: the service check's progress; retry, or go to login.
extension IntroScreen: ScreenView {

  func commands(in app: AppCoordinator) -> [ScreenCommand] {
    [
      .sending("retry", .appeared, to: feature),
      ScreenCommand("login") { arguments throws(ReplError) in
        try arguments.none()
        await app.open(.login)
      },
    ]
  }

  func fields() async -> [Field] {
    let state = await feature.state
    return [
      ("isChecking", .bool(state.isChecking)), ("notice", FieldValue.optional(state.notice, JSONValue.string)),
      ("error", FieldValue.error(state.error)),
    ]
  }
}
