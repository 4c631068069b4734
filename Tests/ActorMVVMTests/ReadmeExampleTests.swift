import ActorMVVM
import ActorMVVMTestSupport
import Testing

// The README's library example, compiled and run so it stays true.

struct Login: StateMachine {
  struct State: Equatable, Sendable {
    var id = ""
    var password = ""
  }
  enum Input: Sendable { case idChanged(String), passwordChanged(String), loginTapped }
  enum Output: Sendable, Equatable { case loggedIn(String), failed(String) }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .idChanged(let id): state.id = id
    case .passwordChanged(let password): state.password = password
    case .loginTapped:
      return state.id.isEmpty || state.password.isEmpty ? .emit(.failed("ERROR")) : .emit(.loggedIn(state.id))
    }
    return .none
  }
}

@Test("README: drive a feature from async code")
func readmeExample() async {
  let login = Feature(Login(), initialState: .init())
  let outputs = login.outputs  // subscribe before sending
  login.send(.idChanged("alice"))
  login.send(.loginTapped)  // no password yet
  login.send(.passwordChanged("secret"))
  login.send(.loginTapped)
  await login.finish()
  #expect(await Array(outputs) == [.failed("ERROR"), .loggedIn("alice")])
}
