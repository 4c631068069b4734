import Testing

@testable import ActorMVVM
@testable import ActorMVVMTesting

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

/// The paths runs start on: immediately (`Task.immediateDetached`: OS 26,
/// Linux) or through the feature's start lane (Apple OSes below 26, which
/// the Apple-SDK profile takes; forced per feature on Linux).
enum StartPath: String, Sendable, CustomTestStringConvertible {
  case platform, lane
  var testDescription: String { rawValue }

  /// Every path this build can take: the lane's alone where it is the platform's.
  static let all: [StartPath] = EffectRunner<Int, Never>.startsRunsImmediately ? [.platform, .lane] : [.platform]

  /// Makes `feature` start its runs on this path.
  func apply<M: StateMachine>(to feature: Feature<M>) async {
    if self == .lane { await feature.startRunsThroughLane() }
  }
}

/// Every input-order case runs on both paths (Guarantees, row 5).
@Suite("Effects start in the order of the inputs that started them", .testBubble)
struct EffectOrderTests {
  @Test(
    "Inputs sent one after another: their effects reach a shared actor in that order (Rx subscribes at the trigger)",
    arguments: StartPath.all)
  func consecutiveInputs(path: StartPath) async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    await path.apply(to: feature)
    for n in 1...8 { feature.send(.load(n)) }
    await feature.idle()
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }

  @Test("Inputs reduced in separate batches: the same order", arguments: StartPath.all)
  func separateBatches(path: StartPath) async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    await path.apply(to: feature)
    for n in 1...8 {
      feature.send(.load(n))
      await feature.flush()
    }
    await feature.idle()
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }

  @Test("Under FeatureTester: the same order", arguments: StartPath.all)
  func tester(path: StartPath) async {
    let log = CallLog()
    let tester = FeatureTester(CallingLoader(log: log), initialState: 0)
    if path == .lane { await tester.feature.startRunsThroughLane() }
    await tester.send(.load(1)) { $0 = 1 }
    await tester.send(.load(2)) { $0 = 2 }
    await tester.settle()
    #expect(await log.calls == [1, 2])
    await tester.finish()
  }

  @Test("One batch of many inputs: the same order", arguments: StartPath.all)
  func oneBatch(path: StartPath) async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    await path.apply(to: feature)
    await feature.perform(.load(0))
    // A burst: reduced in few batches, many runs started by each `startPending`.
    for n in 1...32 { feature.send(.load(n)) }
    await feature.idle()
    #expect(await log.calls == Array(0...32))
    await feature.finish()
  }

  @Test("Every run starts, each once", arguments: StartPath.all)
  func everyRunStarts(path: StartPath) async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    await path.apply(to: feature)
    for n in 1...8 { feature.send(.load(n)) }
    await feature.idle()
    #expect(await log.calls.sorted() == Array(1...8))
    await feature.finish()
  }

  @Test("A run started after the previous one ended makes its call after it", arguments: StartPath.all)
  func orderedAcrossIdle(path: StartPath) async {
    let log = CallLog()
    let feature = Feature(CallingLoader(log: log), initialState: 0, counters: LifetimeCounters())
    await path.apply(to: feature)
    for n in 1...8 {
      feature.send(.load(n))
      await feature.idle()
    }
    #expect(await log.calls == Array(1...8))
    await feature.finish()
  }
}
