import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import InterviewFeature

/// Declaring (reporting) a message: a reason, then submit.
extension DeclareScreen: ScreenView {
  static var opensByName: Bool { false }

  func commands() -> [ScreenCommand] {
    [
      ScreenCommand("reason", usage: "reason <text>") { arguments throws(ReplError) in
        feature.send(.reasonChanged(try arguments.text()))
      },
      .sending("submit", .submitTapped, to: feature),
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("message", .string("\(state.message.messageId) \(state.message.text)")), ("reason", .string(state.reason)),
      ("isSubmitting", .bool(state.isSubmitting)), ("error", FieldValue.error(state.error)),
    ]
  }
}
