import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// A child machine: a credentials form whose check is a superseding run.
struct Credentials: StateMachine {
  let clock: any Clock<Duration>
  struct State: Equatable, Sendable {
    var id = ""
    var isValid: Bool?
  }
  enum Input: Sendable, Equatable { case idChanged(String), checked(String, Bool), submitTapped }
  enum Output: Sendable, Equatable { case submitted(String) }
  enum CancelID: Hashable, Sendable { case check }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .idChanged(let id):
      state.id = id
      state.isValid = nil
      let clock = self.clock
      return .run(id: CancelID.check) { send in
        try? await clock.sleep(for: .milliseconds(100))  // a cancelled run still sends: dropped as stale
        send(.checked(id, id.count >= 3))
      }
    case .checked(_, let valid):
      state.isValid = valid
      return .none
    case .submitTapped:
      return state.isValid == true ? .emit(.submitted(state.id)) : .none
    }
  }
}

/// The parent: a sign-up screen holding the form, with its own ids and outputs.
struct SignUp: StateMachine {
  struct State: Equatable, Sendable {
    var credentials = Credentials.State()
    var step = 1
  }
  enum Input: Sendable, Equatable { case credentials(Credentials.Input), backTapped }
  enum Output: Sendable, Equatable { case credentials(Credentials.Output) }
  enum CancelID: Hashable, Sendable { case check }  // the same name as the child's: a different id

  let credentials: Scope<State, Input, Output, Credentials>

  init(clock: any Clock<Duration>) {
    credentials = Scope(
      Credentials(clock: clock), state: \State.credentials,
      input: { if case .credentials(let input) = $0 { input } else { nil } },
      embed: Input.credentials, output: Output.credentials)
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    if let effect = credentials.reduce(into: &state, input) {
      if case .credentials(.submitTapped) = input, state.credentials.isValid == true { state.step = 2 }
      return effect
    }
    switch input {
    case .backTapped:
      state.step = 1
      return .cancel(id: CancelID.check)  // the parent's id: the child's run is not touched
    case .credentials:
      return .none
    }
  }
}

@Suite(.testBubble) struct CompositionTests {
  @Test func mapTransformsInputsAndOutputsAndKeepsOrder() async {
    let effect = Effect<Int, Int>.merge(.emit(1), .run { send in send(2) }, .emit(3))
    let mapped = effect.map(input: { "input \($0)" }, output: { "output \($0)" })
    struct Echo: StateMachine {
      let effect: Effect<String, String>
      typealias State = [String]
      func reduce(into state: inout [String], _ input: String) -> Effect<String, String> {
        state.append(input)
        return input == "start" ? effect : .none
      }
    }
    let feature = Feature(Echo(effect: mapped), initialState: [])
    let outputs = feature.outputs
    feature.send("start")
    await feature.idle()
    #expect(await feature.state == ["start", "input 2"])
    await feature.finish()
    #expect(await Array(outputs) == ["output 1", "output 3"])
  }

  @Test func childRunsSupersedeAndStaleResultsDropThroughTheParent() async {
    let clock = TestClock()
    let tester = FeatureTester(SignUp(clock: clock), initialState: .init(), clock: clock)
    await tester.send(.credentials(.idChanged("al"))) { $0.credentials.id = "al" }
    await tester.send(.credentials(.idChanged("alice"))) { $0.credentials.id = "alice" }  // supersedes "al"
    await clock.advance(by: .milliseconds(100), expectingSleepers: 1)
    await tester.receive(.credentials(.checked("alice", true))) { $0.credentials.isValid = true }
    await tester.send(.credentials(.submitTapped)) { $0.step = 2 }
    await tester.expectOutput(.credentials(.submitted("alice")))
    await tester.send(.backTapped) { $0.step = 1 }
    await tester.finish()
  }

  @Test func aParentSendsItsChildAnInputUnderAnotherName() async {
    /// A counter child whose effect reports back; the parent calls a win `scored`.
    struct Score: StateMachine {
      typealias State = Int
      enum Input: Sendable, Equatable { case point, saved(Int) }
      enum Output: Sendable, Equatable { case saved(Int) }
      func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Output> {
        switch input {
        case .point:
          state += 1
          let value = state
          return .run { send in send(.saved(value)) }
        case .saved(let value): return .emit(.saved(value))
        }
      }
    }
    struct Game: StateMachine {
      struct State: Equatable, Sendable { var score = 0, goals = 0 }
      enum Input: Sendable, Equatable { case goal, score(Score.Input) }
      enum Output: Sendable, Equatable { case score(Score.Output) }
      let score = Scope(
        Score(), state: \State.score, input: { if case .score(let input) = $0 { input } else { nil } },
        embed: Input.score, output: Output.score)
      func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
        if let effect = score.reduce(into: &state, input) { return effect }
        state.goals += 1
        return score.reduce(into: &state, child: .point)
      }
    }
    let tester = FeatureTester(Game(), initialState: .init())
    await tester.send(.goal) {
      $0.goals = 1
      $0.score = 1
    }
    await tester.receive(.score(.saved(1)))  // the child's effect, fed back through `embed`
    await tester.expectOutput(.score(.saved(1)))
    await tester.finish()
  }
}

/// A search field: each query starts a lookup with the id `"lookup"` (a
/// String, like its parent's), answered when the test opens its gate.
struct SearchField: StateMachine {
  struct State: Equatable, Sendable {
    var query = ""
    var result: String?
  }
  enum Input: Sendable { case typed(String), found(String) }
  typealias Output = Never
  let gates: [String: TestGate]

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .typed(let query):
      state.query = query
      let gate = gates[query]
      return .run(id: "lookup") { send in
        await gate?.wait()
        send(.found(query.uppercased()))
      }
    case .found(let result):
      state.result = result
      return .none
    }
  }
}

/// A route form: "from" and "to" are two scopes of the same child, and the
/// parent has a run of its own under the same id as the child's.
struct RouteForm: StateMachine {
  struct State: Equatable, Sendable {
    var from = SearchField.State()
    var to = SearchField.State()
    var saved = false
  }
  enum Input: Sendable { case from(SearchField.Input), to(SearchField.Input), save, saved }
  typealias Output = Never
  let gates: [String: TestGate]
  var from: Scope<State, Input, Never, SearchField> {
    Scope(
      SearchField(gates: gates), state: \State.from,
      input: { if case .from(let input) = $0 { input } else { nil } }, embed: Input.from)
  }
  var to: Scope<State, Input, Never, SearchField> {
    Scope(
      SearchField(gates: gates), state: \State.to,
      input: { if case .to(let input) = $0 { input } else { nil } }, embed: Input.to)
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    if let effect = from.reduce(into: &state, input) { return effect }
    if let effect = to.reduce(into: &state, input) { return effect }
    switch input {
    case .save:
      let gate = gates["save"]
      return .run(id: "lookup") { send in  // the parent's own id, equal to the child's
        await gate?.wait()
        send(.saved)
      }
    case .saved: state.saved = true
    case .from, .to: break
    }
    return .none
  }
}

@Suite("Scoped cancellation ids")
struct ScopedIDTests {
  @Test("Two scopes of one child: the \"to\" search does not supersede the \"from\" one")
  func twoFieldsOfOneChild() async {
    let fromGate = TestGate()
    let feature = Feature(RouteForm(gates: ["seoul": fromGate]), initialState: .init())
    feature.send(.from(.typed("seoul")))  // held on its gate
    await feature.flush()
    feature.send(.to(.typed("busan")))  // answers at once
    fromGate.open()
    await feature.idle()
    let state = await feature.state
    #expect(state.from.result == "SEOUL")
    #expect(state.to.result == "BUSAN")
    await feature.finish()
  }

  @Test("A child's id equal to its parent's (both the String \"lookup\") cancels neither")
  func parentAndChildWithEqualIDs() async {
    let saveGate = TestGate()
    let feature = Feature(RouteForm(gates: ["save": saveGate]), initialState: .init())
    feature.send(.save)  // the parent's run, held
    await feature.flush()
    feature.send(.from(.typed("seoul")))  // the child's run under an equal id
    saveGate.open()
    await feature.idle()
    let state = await feature.state
    #expect(state.saved)
    #expect(state.from.result == "SEOUL")
    await feature.finish()
  }

  @Test("Within one scope, a newer run still supersedes the older (flatMapLatest)")
  func supersedesWithinTheScope() async {
    let first = TestGate()
    let feature = Feature(RouteForm(gates: ["a": first]), initialState: .init())
    feature.send(.from(.typed("a")))
    await feature.flush()
    feature.send(.from(.typed("b")))
    first.open()
    await feature.idle()
    #expect(await feature.state.from.result == "B")
    await feature.finish()
  }
}

/// A search box whose outputs its parent routes: a submission is heard as
/// the parent's own input, a clear is dropped.
struct SearchBox: StateMachine {
  struct State: Equatable, Sendable { var text = "" }
  enum Input: Equatable, Sendable {
    case typed(String)
    case returnPressed
    case clearTapped
  }
  enum Output: Equatable, Sendable {
    case submitted(String)
    case cleared
  }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .typed(let text):
      state.text = text
      return .none
    case .returnPressed: return .emit(.submitted(state.text))
    case .clearTapped:
      state.text = ""
      return .emit(.cleared)
    }
  }
}

struct SearchPage: StateMachine {
  struct State: Equatable, Sendable {
    var search = SearchBox.State()
    var lastQuery: String?
  }
  enum Input: Equatable, Sendable {
    case search(SearchBox.Input)
    case searchSubmitted(String)
  }
  typealias Output = Never

  let search: Scope<State, Input, Never, SearchBox> = Scope(
    SearchBox(), state: \State.search,
    input: { if case .search(let input) = $0 { input } else { nil } }, embed: Input.search,
    routeOutput: { output in
      switch output {
      case .submitted(let query): .send(.searchSubmitted(query))  // the parent reduces it
      case .cleared: .drop
      }
    })

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    if let effect = search.reduce(into: &state, input) { return effect }
    if case .searchSubmitted(let query) = input { state.lastQuery = query }
    return .none
  }
}

@Suite("A parent routes its child's outputs (issue #47)", .testBubble)
struct ScopeOutputRouteTests {
  @Test("A child's output is heard as the parent's input, or dropped; the parent emits nothing")
  func routed() async {
    let tester = FeatureTester(SearchPage(), initialState: .init())
    await tester.send(.search(.typed("swift"))) { $0.search.text = "swift" }
    await tester.send(.search(.returnPressed))
    await tester.receive(.searchSubmitted("swift")) { $0.lastQuery = "swift" }
    await tester.send(.search(.clearTapped)) { $0.search.text = "" }  // dropped: nothing to assert
    await tester.finish()
  }
}
