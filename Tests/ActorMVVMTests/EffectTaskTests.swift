import ActorMVVMTesting
import Testing

@testable import ActorMVVM

/// A loader whose work cannot fail: `Effect.task` with no `catch`.
private struct Greeter: StateMachine {
  let gate: TestGate
  enum Input: Sendable, Equatable { case greet(String), greeted(String), stop }

  func reduce(into state: inout [String], _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .greet(let name):
      let gate = self.gate
      return .task(id: "greet") {
        await gate.wait()
        return .greeted("hello, \(name)")
      }
    case .greeted(let greeting):
      state.append(greeting)
      return .none
    case .stop:
      return .cancel(id: "greet")
    }
  }
}

@Suite("Effect.task without catch", .testBubble)
struct EffectTaskTests {
  @Test("Its result is fed back as an input")
  func resultFedBack() async {
    let gate = TestGate()
    let tester = FeatureTester(Greeter(gate: gate), initialState: [])
    await tester.send(.greet("ada"))
    gate.open()
    await tester.receive(.greeted("hello, ada")) { $0 = ["hello, ada"] }
    await tester.finish()
  }

  @Test("Cancelled by id while it runs, its result is discarded")
  func cancelledResultDiscarded() async {
    let gate = TestGate()
    let feature = Feature(Greeter(gate: gate), initialState: [], counters: LifetimeCounters())
    feature.send(.greet("ada"))
    await feature.flush()  // reduced: the run has started and waits at the gate
    feature.send(.stop)
    await feature.flush()  // the run is cancelled
    gate.open()
    await feature.finish()  // waits for the cancelled run to end
    #expect(await feature.state == [])
    #expect(feature.discardedEffectInputCount == 1)
  }
}
