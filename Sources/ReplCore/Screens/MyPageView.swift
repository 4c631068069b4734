import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import InterviewFeature

/// My page: the membership, and logging out.
extension MyPageScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      .sending("logout", .logoutTapped, to: feature)
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("member", FieldValue.optional(state.page) { .string($0.member.name) }),
      ("membershipDaysLeft", FieldValue.optional(state.page) { FieldValue.number($0.membershipDaysLeft) }),
      ("isLoading", .bool(state.isLoading)), ("error", FieldValue.error(state.error)),
    ]
  }
}
