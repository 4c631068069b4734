import ActorMVVM
import ActorMVVMTesting
import Testing

/// Records the order in which effects reached it.
private actor CallLog {
  private(set) var calls: [Int] = []
  func call(_ n: Int) { calls.append(n) }
}

/// Each `.load(n)` starts an effect whose first act is a call on a shared
/// actor, as a stubbed use case is called.
private struct CallingLoader: StateMachine {
  let log: CallLog
  enum Input: Sendable { case load(Int) }

  func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .load(let n):
      state += 1
      let log = self.log
      return .run { _ in await log.call(n) }
    }
  }
}

@Suite("Effects start in the order of the inputs that started them")
struct EffectOrderTests {
  @Test(
    "Inputs sent one after another: their effects reach a shared actor in that order (Rx subscribes at the trigger)")
  func consecutiveInputs() async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    for n in 1...8 { feature.send(.load(n)) }
    await feature.idle()
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }

  @Test("Inputs reduced in separate batches: the same order")
  func separateBatches() async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    for n in 1...8 {
      feature.send(.load(n))
      await feature.flush()
    }
    await feature.idle()
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }

  @Test("Under FeatureTester: the same order")
  func tester() async {
    let log = CallLog()
    let tester = FeatureTester(CallingLoader(log: log), initialState: 0)
    await tester.send(.load(1)) { $0 = 1 }
    await tester.send(.load(2)) { $0 = 2 }
    await tester.settle()
    #expect(await log.calls == [1, 2])
    await tester.finish()
  }
}
