import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// A loader whose first request waits on a gate, so a second one supersedes it.
struct Loader: StateMachine {
  let gates: [String: TestGate]
  struct State: Equatable, Sendable {
    var query = ""
    var password = ""
    var isLoading = false
    var result: String?
  }
  enum Input: Sendable { case queryChanged(String), passwordChanged(String), loaded(String) }
  enum Output: Sendable { case done(String) }
  enum CancelID: Hashable, Sendable { case load }

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .queryChanged(let query):
      state.query = query
      state.isLoading = true
      let gate = gates[query]
      return .run(id: CancelID.load) { send in
        await gate?.wait()
        send(.loaded(query))
      }
    case .passwordChanged(let password):
      state.password = password
      return .none
    case .loaded(let result):
      state.isLoading = false
      state.result = result
      return .emit(.done(result))
    }
  }
}

@Suite struct FeatureTraceTests {
  @Test func printsInputsDiffsRunsStaleResultsAndOutputsInOrder() async {
    let lines = Locked<[String]>([])
    let slow = TestGate()
    let feature = Feature(
      Loader(gates: ["a": slow]), initialState: .init(),
      trace: .printing("loader", to: { line in lines.withLock { $0.append(line) } }))
    feature.send(.queryChanged("a"))
    await feature.flush()  // run #1 started, waiting on its gate
    feature.send(.queryChanged("b"))  // supersedes #1
    await feature.flush()
    slow.open()  // #1 wakes and sends a stale result
    await feature.idle()  // both runs have ended and their results were handled
    await feature.finish()
    let trace = lines.withLock { $0 }
    #expect(
      Array(trace.prefix(7)) == [
        #"[loader] input queryChanged("a")"#,
        #"[loader]   state query: "" → "a", isLoading: false → true"#,
        "[loader]   effect #1 started (id: load)",
        #"[loader] input queryChanged("b")"#,
        #"[loader]   state query: "a" → "b""#,
        "[loader]   effect #1 superseded (id: load)",
        "[loader]   effect #2 started (id: load)",
      ])
    // Then, in an order the two runs' timing decides:
    #expect(trace.contains(#"[loader] input loaded("b")"#))
    #expect(trace.contains(#"[loader]   state isLoading: true → false, result: nil → Optional("b")"#))
    #expect(trace.contains(#"[loader]   output done("b")"#))
    #expect(trace.contains("[loader]   effect #2 ended (id: load)"))
    #expect(trace.contains(#"[loader]   stale result dropped: loaded("a")"#))
    #expect(trace.contains("[loader]   effect #1 ended"))
  }

  @Test func secretsAreMasked() async {
    let lines = Locked<[String]>([])
    let feature = Feature(
      Loader(gates: [:]), initialState: .init(),
      trace: .printing("login", to: { line in lines.withLock { $0.append(line) } }))
    feature.send(.passwordChanged("hunter2"))
    await feature.finish()
    let trace = lines.withLock { $0 }
    #expect(trace == ["[login] input passwordChanged(•••)", "[login]   state password: ••• → •••"])
    #expect(!trace.joined().contains("hunter2"))
  }

  @Test func describeMasksSecretFieldsInNestedValues() {
    struct Session { var member = "alice"; var accessToken = "t0k3n" }
    enum Input { case restored(Session), apiKeyEntered(String) }
    #expect(Secrets.describe(Input.restored(Session())) == #"restored(Session(member: "alice", accessToken: •••))"#)
    #expect(Secrets.describe(Input.apiKeyEntered("k")) == "apiKeyEntered(•••)")
  }

  @Test func customSinkGetsTypedEvents() async {
    let outputs = Locked<[String]>([])
    let feature = Feature(
      Loader(gates: [:]), initialState: .init(),
      trace: FeatureTrace { event in
        if case .output(.done(let value)) = event { outputs.withLock { $0.append(value) } }
      })
    feature.send(.queryChanged("x"))
    await feature.idle()
    await feature.finish()
    #expect(outputs.withLock { $0 } == ["x"])
  }
}
