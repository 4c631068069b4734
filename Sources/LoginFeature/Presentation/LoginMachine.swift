import ActorMVVM

/// The login screen (seed 001).
///
/// The article's `loginBtnTouched.withLatestFrom(combineLatest(id, pw))
/// .flatMapLatest(requestLogin)` becomes: the id and password are folded
/// into `State` as they change; a tap reads them from the state and starts
/// the request under one cancellation id, so repeated taps keep only the
/// latest. The `Result` signal is the ``Output``.
public struct LoginMachine: StateMachine {
  public struct State: Equatable, Sendable, CustomStringConvertible {
    public var id = ""
    public var password = ""
    public var isLoading = false
    /// The last failure's message, for the view.
    public var errorMessage: String?

    public init() {}

    /// Never shows the password.
    public var description: String {
      "LoginMachine.State(id: \(id), password: \(password.isEmpty ? "" : Secrets.mask), isLoading: \(isLoading), "
        + "errorMessage: \(errorMessage ?? "nil"))"
    }
  }

  public enum Input: Sendable, Equatable {
    case idChanged(String)
    case passwordChanged(String)
    case loginTapped
    case loginSucceeded(LoginSession)
    case loginFailed(LoginError)
  }

  public enum Output: Sendable, Equatable {
    /// Move to the main screen.
    case loggedIn(LoginSession)
    /// Show the error.
    case failed(LoginError)
  }

  let auth: any AuthUseCase

  public init(auth: any AuthUseCase) { self.auth = auth }

  enum CancelID: Hashable, Sendable { case login }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .idChanged(let id):
      state.id = id
      return .none
    case .passwordChanged(let password):
      state.password = password
      return .none
    case .loginTapped:
      guard !state.id.isEmpty, !state.password.isEmpty else {
        state.errorMessage = LoginError.defaultError.msg
        state.isLoading = false
        return .merge(.cancel(id: CancelID.login), .emit(.failed(.defaultError)))
      }
      state.isLoading = true
      state.errorMessage = nil
      let (auth, id, password) = (self.auth, state.id, state.password)
      return .task(id: CancelID.login) { () async throws(LoginError) in
        .loginSucceeded(try await auth.login(id: id, password: password))
      } catch: {
        .loginFailed($0)
      }
    case .loginSucceeded(let session):
      state.isLoading = false
      return .emit(.loggedIn(session))
    case .loginFailed(let error):
      state.isLoading = false
      state.errorMessage = error.msg
      return .emit(.failed(error))
    }
  }
}
