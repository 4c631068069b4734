import ActorMVVM

/// The declare screen: a reason, then the report. It finishes with the
/// API's answer, which the coordinator hands back to the message room.
public struct DeclareMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var message: Message
    public var reason = ""
    public var isSubmitting = false
    public var error: InterviewError?

    public init(message: Message) { self.message = message }
  }

  public enum Input: Sendable, Equatable {
    case reasonChanged(String)
    case submitTapped
    case declared(DeclareResult)
    case failed(InterviewError)
  }

  public enum Output: Sendable, Equatable {
    case finished(DeclareResult)
    case sessionExpired
  }

  let declare: any DeclareUseCase

  public init(declare: any DeclareUseCase) { self.declare = declare }

  enum CancelID: Hashable, Sendable { case declare }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .reasonChanged(let reason):
      state.reason = reason
      return .none
    case .submitTapped:
      // A report without a reason is refused here, before any request.
      guard !state.reason.allSatisfy(\.isWhitespace) else {
        state.error = .missingReason
        return .none
      }
      state.isSubmitting = true
      state.error = nil
      let (declare, messageId, reason) = (self.declare, state.message.messageId, state.reason)
      return .task(id: CancelID.declare) { () async throws(InterviewError) in
        .declared(try await declare.declare(messageId: messageId, reason: reason))
      } catch: {
        .failed($0)
      }
    case .declared(let result):
      state.isSubmitting = false
      return .emit(.finished(result))
    case .failed(let error):
      state.isSubmitting = false
      state.error = error
      return error == .sessionExpired ? .emit(.sessionExpired) : .none
    }
  }
}
