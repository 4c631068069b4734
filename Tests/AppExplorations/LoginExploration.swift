import ActorMVVM
import ActorMVVMTesting
import LoginFeature

/// The login use case, answered by the explorer: a login succeeds as the
/// id it was asked for, or fails with 401.
public struct ExploredAuth: AuthUseCase {
  public let call: ExploredCall<String, LoginSession, LoginError>

  public init(_ world: ExplorationWorld) {
    call = world.call(
      "login",
      answers: { (id: String) -> [Result<LoginSession, LoginError>] in
        [.success(Self.session(id)), .failure(.error(code: 401))]
      }, whenCancelled: LoginError.defaultError)
  }

  public static func session(_ id: String) -> LoginSession {
    LoginSession(
      user: User(id: id, name: id, memIdx: 1), tokens: TokenPair(accessToken: "a", refreshToken: "r", expiresIn: 60))
  }

  public func login(id: String, password: String) async throws(LoginError) -> LoginSession { try await call(id) }
  public func refresh(refreshToken: String) async throws(LoginError) -> LoginSession { throw .defaultError }
}

public enum LoginRules {
  /// The id at each input: the values a tap at that index would send (nil
  /// for a tap that sends nothing: an empty field).
  public static func tapValues(_ inputs: [LoginMachine.Input]) -> [Int: String] {
    var (id, password) = ("", "")
    var taps: [Int: String] = [:]
    for (index, input) in inputs.enumerated() {
      switch input {
      case .idChanged(let value): id = value
      case .passwordChanged(let value): password = value
      case .loginTapped where !id.isEmpty && !password.isEmpty: taps[index] = id
      default: break
      }
    }
    return taps
  }

  /// Every `loggedIn` follows a tap that sent values, carries the id of the
  /// last such tap before it, and no two follow the same tap.
  public static func oneLoginPerTapWithItsValues(
    _ inputs: [LoginMachine.Input], _ outputs: [LoginMachine.Output], _ before: [Int]
  )
    -> Bool
  {
    let taps = tapValues(inputs)
    var credited: Set<Int> = []
    for (output, sent) in zip(outputs, before) {
      guard case .loggedIn(let session) = output else { continue }
      guard let tap = taps.keys.filter({ $0 < sent }).max(), taps[tap] == session.user.id,
        credited.insert(tap).inserted
      else { return false }
    }
    return true
  }

  public static let alphabet: [LoginMachine.Input] = [
    .idChanged("alice"), .idChanged("bob"), .passwordChanged("pw"), .loginTapped,
  ]

  /// The shipped machine, explored: any 4 of id, password and login taps,
  /// each login answered or failed in every order.
  public static let exploration = Exploration<LoginMachine>(inputs: .alphabet(alphabet, count: 4)) { world in
    (LoginMachine(auth: ExploredAuth(world)), .init())
  }
  .invariant("at most one loggedIn per tap, with the values at the last tap before it") {
    oneLoginPerTapWithItsValues($0.inputs, $0.outputs, $0.inputsBeforeOutput)
  }
  .whenSettled("isLoading is false once nothing is in flight") { !$0.state.isLoading }
}
