import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import InterviewFeature

/// Home: the member, their interviews and unread messages.
extension HomeScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      .sending("refresh", .appeared, to: feature)
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("member", FieldValue.optional(state.member) { .string($0.name) }),
      ("unreadCount", FieldValue.number(state.unreadCount)),
      (
        "interviews",
        .array(state.interviews.map { .string("\($0.termNo) \($0.title)\($0.completed ? "" : " (in progress)")") })
      ),
      ("isLoading", .bool(state.isLoading)), ("error", FieldValue.optional(state.error) { .string($0.description) }),
    ]
  }
}
