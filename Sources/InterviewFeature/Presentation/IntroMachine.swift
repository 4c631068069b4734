import ActorMVVM
import LoginFeature

/// The intro screen: check the service, restore the stored session, then
/// go home (session restored) or to login (none).
public struct IntroMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var isChecking = false
    /// Set while the service is under maintenance; the app stays here.
    public var notice: String?
    public var error: InterviewError?
    public init() {}
  }

  public enum Input: Sendable, Equatable {
    case appeared
    /// The user asks for login instead of waiting for the check.
    case loginTapped
    case checked(ServiceStatus, restored: User?)
    /// A stored session the server refused: log in again, and say why.
    case restoreRefused
    case failed(InterviewError)
  }

  public enum Output: Sendable, Equatable {
    case showHome(User)
    case showLogin
    /// The stored session was refused by the server: log in again, and
    /// the login says why.
    case sessionExpired
  }

  let serviceCheck: any ServiceCheckUseCase
  let session: any SessionUseCase

  public init(serviceCheck: any ServiceCheckUseCase, session: any SessionUseCase) {
    self.serviceCheck = serviceCheck
    self.session = session
  }

  enum CancelID: Hashable, Sendable { case intro }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared:
      state.isChecking = true
      state.error = nil
      let (serviceCheck, session) = (self.serviceCheck, self.session)
      return .task(id: CancelID.intro) { () async throws(InterviewError) in
        let status = try await serviceCheck.serviceStatus()
        guard status.available else { return .checked(status, restored: nil) }
        let outcome = await session.restore()
        return outcome == .refused ? .restoreRefused : .checked(status, restored: outcome.user)
      } catch: {
        .failed($0)
      }
    case .loginTapped:
      return .emit(.showLogin)
    case .checked(let status, let user):
      state.isChecking = false
      guard status.available else {
        state.notice = status.notice ?? "The service is under maintenance"
        return .none
      }
      state.notice = nil
      return .emit(user.map(Output.showHome) ?? .showLogin)
    case .restoreRefused:
      state.isChecking = false
      state.notice = nil
      state.error = .sessionExpired
      return .emit(.sessionExpired)
    case .failed(let error):
      state.isChecking = false
      state.error = error
      return .none
    }
  }
}
