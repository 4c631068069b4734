import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMNetworkingTesting
import ActorMVVMTesting
import EmbeddedBackend
import LoginFeature
import Testing

@Suite("Login", .testBubble)
struct LoginTests {
  let backend = EmbeddedBackend()
  var auth: InterviewAuthService { InterviewAuthService(client: backend) }

  @Test("LoginError's messages, as the article")
  func messages() {
    #expect(LoginError.defaultError.msg == "ERROR")
    #expect(LoginError.error(code: 401).msg == "401 Error")
  }

  @Test("An empty id or password fails with defaultError and sends no request")
  func emptyFields() async {
    let stub = HTTPClientStub(json: "{}")
    let tester = FeatureTester(LoginMachine(auth: InterviewAuthService(client: stub)), initialState: .init())
    await tester.send(.loginTapped) { $0.errorMessage = "ERROR" }
    await tester.expectOutput(.failed(.defaultError))
    await tester.send(.idChanged("alice")) { $0.id = "alice" }
    await tester.send(.loginTapped)
    await tester.expectOutput(.failed(.defaultError))
    await tester.finish()
    #expect(stub.requests.isEmpty)
  }

  @Test("The right password logs in, yielding the user and the token pair")
  func success() async throws {
    let tester = FeatureTester(LoginMachine(auth: auth), initialState: .init())
    await tester.send(.idChanged("alice")) { $0.id = "alice" }
    await tester.send(.passwordChanged("secret")) { $0.password = "secret" }
    await tester.send(.loginTapped) { $0.isLoading = true }
    await tester.receive(where: {
      if case .loginSucceeded(let session) = $0 {
        return session.user == User(id: "alice", name: "Alice Kim", memIdx: 1)
      }
      return false
    }) { $0.isLoading = false }
    await tester.expectOutput(where: {
      if case .loggedIn(let session) = $0 { return !session.tokens.accessToken.isEmpty && session.tokens.expiresIn > 0 }
      return false
    })
    await tester.finish()
  }

  @Test("A wrong password fails with error(code: 401): \"401 Error\"")
  func wrongPassword() async {
    let tester = FeatureTester(LoginMachine(auth: auth), initialState: .init())
    await tester.send(.idChanged("alice")) { $0.id = "alice" }
    await tester.send(.passwordChanged("nope")) { $0.password = "nope" }
    await tester.send(.loginTapped) { $0.isLoading = true }
    await tester.receive(.loginFailed(.error(code: 401))) {
      $0.isLoading = false
      $0.errorMessage = "401 Error"
    }
    await tester.expectOutput(.failed(.error(code: 401)))
    await tester.finish()
  }

  @Test("No connection fails with defaultError")
  func offline() async {
    let service = InterviewAuthService(client: HTTPClientStub(error: .transport("connection refused")))
    await #expect(throws: LoginError.defaultError) { try await service.login(id: "a", password: "b") }
  }

  /// Logs in when the test opens the gate for that password.
  struct GatedAuth: AuthUseCase {
    let gates: [String: TestGate]
    func login(id: String, password: String) async throws(LoginError) -> LoginSession {
      await gates[password]?.wait()
      return LoginSession(
        user: User(id: id, name: password, memIdx: 1),
        tokens: TokenPair(accessToken: "a", refreshToken: "r", expiresIn: 1))
    }
    func refresh(refreshToken: String) async throws(LoginError) -> LoginSession { throw .defaultError }
  }

  @Test("Repeated taps: the latest wins (flatMapLatest)")
  func latestTapWins() async {
    let gates = ["first": TestGate(), "second": TestGate()]
    let feature = Feature(
      LoginMachine(auth: GatedAuth(gates: gates)), initialState: .init(), counters: LifetimeCounters())
    let outputs = feature.outputs
    feature.send(.idChanged("alice"))
    feature.send(.passwordChanged("first"))
    feature.send(.loginTapped)
    feature.send(.passwordChanged("second"))
    feature.send(.loginTapped)
    await feature.flush()
    gates["second"]!.open()
    gates["first"]!.open()  // the superseded request answers too, late
    await feature.idle()
    await feature.finish()
    let names = await Array(outputs).map { output -> String in
      if case .loggedIn(let session) = output { return session.user.name }
      return "failed"
    }
    #expect(names == ["second"])
  }

  @Test("The state never prints the password")
  func redactedState() {
    var state = LoginMachine.State()
    state.password = "secret"
    #expect(!"\(state)".contains("secret"))
  }
}

extension Array {
  init<S: AsyncSequence>(_ sequence: S) async where S.Element == Element, S.Failure == Never {
    var result: [Element] = []
    for await element in sequence { result.append(element) }
    self = result
  }
}
