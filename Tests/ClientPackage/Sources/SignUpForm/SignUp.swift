import ActorMVVM

/// The credentials part of a form, reusable on its own: two fields and
/// their validation.
public struct Credentials: StateMachine {
  public struct State: Equatable, Sendable {
    public var email = ""
    public var password = ""
    public init() {}
    /// An email with an "@" and a password of at least 8 characters.
    public var isValid: Bool { email.contains("@") && password.count >= 8 }
  }
  public enum Input: Sendable, Equatable { case emailChanged(String), passwordChanged(String) }
  public typealias Output = Never

  public init() {}

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .emailChanged(let email): state.email = email
    case .passwordChanged(let password): state.password = password
    }
    return .none
  }
}

/// What registering can fail with.
public enum SignUpError: Error, Equatable, Sendable {
  case emailTaken
  case offline
}

/// A sign-up form: the credentials as a child machine (``Scope``), a submit
/// that registers with a typed error, and an output when it succeeds.
public struct SignUp: StateMachine {
  public struct State: Equatable, Sendable {
    public var credentials = Credentials.State()
    public var isSubmitting = false
    public var error: SignUpError?
    public init() {}
    /// Whether the submit button is enabled.
    public var canSubmit: Bool { credentials.isValid && !isSubmitting }
  }
  public enum Input: Sendable, Equatable {
    case credentials(Credentials.Input)
    case submitTapped
    case registered(userID: String)
    case failed(SignUpError)
  }
  public enum Output: Sendable, Equatable { case signedUp(userID: String) }
  enum CancelID: Hashable, Sendable { case register }

  let register: @Sendable (String, String) async throws(SignUpError) -> String
  let credentials = Scope<State, Input, Output, Credentials>(
    Credentials(), state: \State.credentials,
    input: { if case .credentials(let input) = $0 { input } else { nil } },
    embed: Input.credentials)

  public init(register: @escaping @Sendable (String, String) async throws(SignUpError) -> String) {
    self.register = register
  }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    if let effect = credentials.reduce(into: &state, input) {
      state.error = nil
      return effect
    }
    switch input {
    case .credentials: return .none
    case .submitTapped:
      guard state.canSubmit else { return .none }
      state.isSubmitting = true
      let (register, email, password) = (self.register, state.credentials.email, state.credentials.password)
      return .task(id: CancelID.register) { () async throws(SignUpError) in
        .registered(userID: try await register(email, password))
      } catch: {
        .failed($0)
      }
    case .registered(let userID):
      state.isSubmitting = false
      return .emit(.signedUp(userID: userID))
    case .failed(let error):
      state.isSubmitting = false
      state.error = error
      return .none
    }
  }
}
