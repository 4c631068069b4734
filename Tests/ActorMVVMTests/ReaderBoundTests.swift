import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import Testing

/// A machine whose every reduction sends another input: synchronously,
/// through a dependency that calls back on the feature's actor (`reentrant`),
/// or from an effect it starts.
struct Echo: StateMachine {
  struct State: Equatable, Sendable { var count = 0 }
  enum Input: Sendable { case tick }
  typealias Output = Never

  /// The feature itself, for the synchronous echo.
  let feature = Locked<Feature<Echo>?>(nil)
  let reentrant: Bool

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    state.count += 1
    guard !reentrant else {
      feature.withLock { $0 }?.send(.tick)
      return .none
    }
    return .run { send in send(.tick) }
  }

  static func feature(reentrant: Bool) -> Feature<Echo> {
    let machine = Echo(reentrant: reentrant)
    let feature = Feature(machine, initialState: .init())
    machine.feature.withLock { $0 = feature }
    return feature
  }
}

@Suite("Readers return on a machine that keeps sending", .timeLimit(.minutes(1)))
struct ReaderBoundTests {
  @Test(
    "state, flush and idle reduce what was pending when they were called (and a bounded number of batches after), and return, though every reduction sends again",
    arguments: [true, false])
  func readersReturn(reentrant: Bool) async {
    let feature = Echo.feature(reentrant: reentrant)
    feature.send(.tick)
    let first = await feature.state.count
    #expect(first >= 1)
    await feature.flush()
    if reentrant { await feature.idle() }  // an echoing effect is never idle
    let later = await feature.state.count
    // The synchronous echo is in the mailbox when each reader is called, so
    // every reader reduces more; an effect's echo arrives when its task
    // runs, which no reader waits for.
    #expect(reentrant ? later > first : later >= first)
    await feature.finish()
    // A finished feature's echo is dropped, not reduced.
    let final = await feature.state.count
    #expect(await feature.state.count == final)
    feature.send(.tick)
    #expect(feature.droppedInputCount >= 1)
  }

  @Test(
    "An observer that stops itself from inside a transition (reentering the feature) is called once, and the feature goes on"
  )
  func observerReenters() async {
    let feature = Feature(Journal(gate: TestGate()), initialState: .init())
    let id = Locked<UInt64?>(nil)
    let calls = Locked(0)
    let (observer, _) = await feature.observeTransitions { _ in
      calls.withLock { $0 += 1 }
      guard let own = id.withLock({ $0 }) else { return }
      feature.assumeIsolated { $0.stopObservingTransitions(own) }
    }
    id.withLock { $0 = observer }
    await feature.perform(.write("x"))
    await feature.perform(.write("x"))
    #expect(calls.withLock { $0 } == 1)
    let (again, _) = await feature.observeTransitions { _ in calls.withLock { $0 += 1 } }
    await feature.perform(.write("x"))
    #expect(calls.withLock { $0 } == 2)
    await feature.stopObservingTransitions(again)
    await feature.finish()
  }
}
