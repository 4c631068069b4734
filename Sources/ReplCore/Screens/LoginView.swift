import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import LoginFeature

/// The login screen (seed 001). The password never shows.
extension LoginScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      ScreenCommand("id", usage: "id [<text>] (no text clears it)") { arguments throws(ReplError) in
        feature.send(.idChanged(arguments.rest))
      },
      ScreenCommand("password", usage: "password [<text>] (no text clears it)") { arguments throws(ReplError) in
        feature.send(.passwordChanged(arguments.rest))
      },
      .sending("login", .loginTapped, to: feature),
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("id", .string(state.id)), ("password", .string(state.password.isEmpty ? "" : Secrets.mask)),
      ("isLoading", .bool(state.isLoading)), ("error", FieldValue.optional(state.errorMessage, JSONValue.string)),
    ]
  }

  func secretFingerprints(of state: Machine.State) -> [String: Int] {
    ["password": state.password.hashValue]
  }
}
