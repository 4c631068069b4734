import ActorMVVM

/// The message room (the article's `MsgViewModel`): room info, the
/// messages, and the report ("declare") flow. Declaring a message asks the
/// coordinator for the declare screen; when that screen finishes, the
/// result comes back as ``Input/declareFinished(_:)`` and becomes an
/// `openURL` output or the "declare complete" alert. Only the other
/// party's messages can be declared (the article's swipe action is on
/// theirs); a member's own message is refused with ``InterviewError/ownMessage``.
/// Starting a load clears the last error.
public struct MessagesMachine: StateMachine {
  public enum Trigger: Equatable, Sendable { case rooms, messages, declare }

  public struct State: Equatable, Sendable {
    public var rooms: [MessageRoom] = []
    public var room: MessageRoom?
    public var messages: [Message] = []
    public var isLoading = false
    public var error: TriggeredError<Trigger>?
    /// The member's id: their own messages carry it as `sender`.
    public var memberID: String?

    public init(memberID: String? = nil) { self.memberID = memberID }
  }

  public enum Input: Sendable, Equatable {
    case appeared
    case roomSelected(Int)
    case declareTapped(messageId: Int)
    case declareFinished(DeclareResult)
    case roomsLoaded([MessageRoom])
    case messagesLoaded(MessageRoom, [Message])
    case failed(TriggeredError<Trigger>)
  }

  public enum Alert: Equatable, Sendable { case declareComplete }

  public enum Output: Sendable, Equatable {
    case openDeclare(Message)
    case openURL(String)
    case alert(Alert)
    case sessionExpired
  }

  let messages: any MessagesUseCase

  public init(messages: any MessagesUseCase) { self.messages = messages }

  enum CancelID: Hashable, Sendable { case load }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared:
      state.isLoading = true
      state.error = nil
      return load(roomId: nil)
    case .roomSelected(let roomId):
      state.isLoading = true
      state.error = nil
      return load(roomId: roomId)
    case .roomsLoaded(let rooms):
      state.rooms = rooms
      return .none
    case .messagesLoaded(let room, let messages):
      state.isLoading = false
      state.room = room
      state.messages = messages
      state.error = nil
      return .none
    case .declareTapped(let messageId):
      guard let message = state.messages.first(where: { $0.messageId == messageId }) else {
        state.error = TriggeredError(.declare, .notFound)
        return .none
      }
      guard message.sender != state.memberID else {
        state.error = TriggeredError(.declare, .ownMessage)
        return .none
      }
      state.error = nil
      return .emit(.openDeclare(message))
    case .declareFinished(.openURL(let url)):
      return .emit(.openURL(url))
    case .declareFinished(.completed):
      return .emit(.alert(.declareComplete))
    case .failed(let error):
      state.isLoading = false
      state.error = error
      return error.error == .sessionExpired ? .emit(.sessionExpired) : .none
    }
  }

  private func load(roomId: Int?) -> Effect<Input, Output> {
    let messages = self.messages
    return .run(id: CancelID.load) { send in
      var trigger = Trigger.rooms
      do throws(InterviewError) {
        let rooms = try await messages.rooms()
        send(.roomsLoaded(rooms))
        trigger = .messages
        guard let room = rooms.first(where: { $0.roomId == roomId }) ?? (roomId == nil ? rooms.first : nil) else {
          throw .notFound
        }
        trigger = .messages
        send(.messagesLoaded(room, try await messages.messages(roomId: room.roomId)))
      } catch {
        send(.failed(TriggeredError(trigger, error)))
      }
    }
  }
}
