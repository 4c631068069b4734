import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import InterviewFeature

/// The member's message rooms and one room's messages.
extension MessagesScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      ScreenCommand("room", usage: "room <roomId>") { arguments throws(ReplError) in
        feature.send(.roomSelected(try arguments.int()))
      },
      ScreenCommand("declare", usage: "declare <messageId>") { arguments throws(ReplError) in
        feature.send(.declareTapped(messageId: try arguments.int()))
      },
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("rooms", .array(state.rooms.map { .string("\($0.roomId) \($0.title)") })),
      ("room", FieldValue.optional(state.room) { .string("\($0.roomId) \($0.title)") }),
      ("messages", .array(state.messages.map { .string("\($0.messageId) \($0.sender): \($0.text)") })),
      ("isLoading", .bool(state.isLoading)), ("error", FieldValue.optional(state.error) { .string($0.description) }),
    ]
  }
}
