import ActorMVVMTesting
import Testing

@testable import ActorMVVM

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

/// The input-order cases hold where runs start immediately (OS 26, Linux);
/// below OS 26 (the Apple-SDK profile takes that path) each run is a plain
/// detached task and only the cases marked "both paths" are promised
/// (Guarantees, row 5).
@Suite("Effects start in the order of the inputs that started them", .testBubble)
struct EffectOrderTests {
  static let immediate = EffectRunner<Int, Never>.startsRunsImmediately

  @Test(
    "Inputs sent one after another: their effects reach a shared actor in that order (Rx subscribes at the trigger)",
    .enabled(if: immediate, "below OS 26 runs are plain detached tasks"))
  func consecutiveInputs() async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    for n in 1...8 { feature.send(.load(n)) }
    await feature.idle()
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }

  @Test(
    "Inputs reduced in separate batches: the same order",
    .enabled(if: immediate, "below OS 26 runs are plain detached tasks"))
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

  @Test("Under FeatureTester: the same order", .enabled(if: immediate, "below OS 26 runs are plain detached tasks"))
  func tester() async {
    let log = CallLog()
    let tester = FeatureTester(CallingLoader(log: log), initialState: 0)
    await tester.send(.load(1)) { $0 = 1 }
    await tester.send(.load(2)) { $0 = 2 }
    await tester.settle()
    #expect(await log.calls == [1, 2])
    await tester.finish()
  }

  @Test("Both paths: every run starts, each once, whatever the order")
  func everyRunStarts() async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    for n in 1...8 { feature.send(.load(n)) }
    await feature.idle()
    #expect(await log.calls.sorted() == Array(1...8))
    await feature.finish()
  }

  @Test("Both paths: a run started after the previous one ended makes its call after it")
  func orderedAcrossIdle() async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    for n in 1...8 {
      feature.send(.load(n))
      await feature.idle()
    }
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }
}
