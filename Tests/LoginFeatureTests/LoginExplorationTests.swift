import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import AppExplorations
import LoginFeature
import Testing

@Suite("Exploring every order: the login feature", .testBubble)
struct LoginExplorationTests {
  @Test(
    "Any 4 of id, password and login taps, answered or failed in any order: one loggedIn per tap sequence, with the last tap's values; loading never stays on with nothing in flight"
  )
  func oneLoginWithTheLastTapsValues() async {
    let report = await LoginRules.exploration.explore()
    print("login, 4 of 4 inputs × 2 answers: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
  }
}

/// `LoginMachine` with a bug put back: its request has no cancellation id,
/// so an earlier tap's answer still lands after a later tap.
struct LoginWithoutCancellation: StateMachine {
  let base: LoginMachine
  let auth: ExploredAuth

  func reduce(into state: inout LoginMachine.State, _ input: LoginMachine.Input) -> Effect<
    LoginMachine.Input, LoginMachine.Output
  > {
    let effect = base.reduce(into: &state, input)
    guard case .loginTapped = input, state.isLoading else { return effect }
    let (auth, id, password) = (self.auth, state.id, state.password)
    return .task { () async throws(LoginError) in  // the bug: no `id: CancelID.login`
      .loginSucceeded(try await auth.login(id: id, password: password))
    } catch: {
      .loginFailed($0)
    }
  }
}

@Suite("Exploring every order finds a bug put back into the login feature", .testBubble)
struct LoginExplorationMutantTests {
  static let exploration = Exploration<LoginWithoutCancellation>(inputs: .alphabet(LoginRules.alphabet, count: 4)) {
    world in
    let auth = ExploredAuth(world)
    return (LoginWithoutCancellation(base: LoginMachine(auth: auth), auth: auth), .init())
  }
  .invariant("at most one loggedIn per tap, with the values at the last tap before it") {
    LoginRules.oneLoginPerTapWithItsValues($0.inputs, $0.outputs, $0.inputsBeforeOutput)
  }

  @Test("Without the request's cancellation id: the shortest order where an earlier tap logs in after a later one")
  func missingCancellationIsFound() async throws {
    let report = await Self.exploration.explore()
    print("login without its cancellation id: \(report)")
    let failure = try #require(report.failure)
    // Id, password, two taps, and both answers: the second loggedIn is the one too many.
    #expect(
      failure.steps.map { $0.description } == [
        #"send idChanged("alice")"#, "send passwordChanged(•••)", "send loginTapped", "send loginTapped",
        #"answer login("alice") with #0"#, #"answer login("alice") with #0"#,
      ])
    #expect(failure.timeline.components(separatedBy: "! loggedIn").count == 3)
  }
}

@Suite("A seeded search finds a bug put back into the login feature past the budget", .testBubble)
struct LoginSearchTests {
  @Test(
    "Without the request's cancellation id: breadth first runs out of executions first; a seeded search finds it and its token replays it"
  )
  func missingCancellationIsFound() async throws {
    let report = try await LoginExplorationMutantTests.exploration.searchPastTheBudget(400, .random)
    print("login without its cancellation id, searched: \(report)")
  }
}
