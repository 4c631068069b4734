import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

/// The lifecycle rules of the runtime-edges issue: calls safe from anywhere.
@Suite("Feature lifecycle", .testBubble)
struct LifecycleTests {
  func makeFeature(_ counters: LifetimeCounters = LifetimeCounters()) -> (Feature<Reentrant>, Reentrant) {
    Reentrant.makeFeature(counters)
  }

  @Test("finish() from inside an effect returns, and a later finish() from outside too")
  func finishFromEffect() async {
    let counters = LifetimeCounters()
    let (feature, _) = makeFeature(counters)
    let states = feature.stateValues
    feature.send(.finishFromEffect)
    for await _ in states {}  // ends when the effect's finish() has finished the streams
    await feature.finish()  // would hang if the first finish never returned
    #expect(await feature.runningEffectCount == 0)
  }

  @Test("idle() from inside an effect returns (it reduces what is pending, without waiting for effects)")
  func idleFromEffect() async {
    let (feature, _) = makeFeature()
    feature.send(.idleFromEffect)
    await feature.idle()  // returns once the effect, which awaited idle(), has returned
    #expect(await feature.state.count == 2)
    await feature.finish()
  }

  @Test("A save asked for by the last input is made, even when it checks cancellation first", arguments: 0..<100)
  func lastSaveIsNotLost(_ run: Int) async {
    let (feature, machine) = makeFeature()
    feature.send(.saveLast(run))
    await feature.finish()
    #expect(machine.saved.withLock { $0 } == [run])
  }

  @Test("An input sent after its effect returned is discarded and counted, apart from dropped inputs")
  func lateSend() async {
    let (feature, machine) = makeFeature()
    feature.send(.bridge)
    await feature.idle()  // the run has returned
    machine.bridgeGate.open()  // now the callback fires
    await machine.sentGate.wait()
    await feature.flush()
    #expect(await feature.state.count == 1)  // .bridged was not reduced
    #expect(feature.lateEffectInputCount == 1)
    #expect(feature.discardedEffectInputCount == 1)
    #expect(feature.droppedInputCount == 0)
    await feature.finish()
  }

  @Test("droppedInputCount counts inputs sent after finish(), not results of effects it cancelled")
  func droppedMeansInputs() async {
    let testClock = TestClock()
    let feature = Feature(Probe(clock: testClock), initialState: .init())
    feature.send(.load(1, after: .seconds(1)))
    await testClock.waitForSleepers(1)
    await feature.finish()  // cancels the load: its failure input is discarded
    feature.send(.add(1))
    #expect(feature.droppedInputCount == 1)
    #expect(feature.discardedEffectInputCount == 1)
  }

  @Test("Effects run with no task-locals of the sender and with their own priority")
  func effectContext() async {
    let (feature, _) = makeFeature()
    await Task(priority: .high) {
      Reentrant.$sender.withValue("a sender's task-local") { feature.send(.readContext) }
    }.value
    await feature.idle()
    #expect(await feature.state.context == "no task-local \(TaskPriority.low)")
    await feature.finish()

    let tester = FeatureTester(Reentrant(feature: Locked(nil), saved: Locked([])), initialState: .init())
    await Task(priority: .high) {
      await Reentrant.$sender.withValue("a sender's task-local") {
        await tester.send(.readContext) { $0.count = 1 }
      }
    }.value
    await tester.receive(.context(nil, .low)) {
      $0.count = 2
      $0.context = "no task-local \(TaskPriority.low)"
    }
    await tester.finish()
  }
}

/// A machine with nothing to do.
struct Inert: StateMachine {
  func reduce(into state: inout Int, _ input: Int) -> Effect<Int, Never> {
    state += input
    return .none
  }
}

@Suite("LifetimeCounters: waiting for features")
struct FeatureReleaseWaitTests {
  @Test("waitForFeatures(atMost:) returns once that few are alive, at once if already so", .timeLimit(.minutes(1)))
  func waitsForReleases() async {
    let counters = LifetimeCounters()
    var first: Feature<Inert>? = Feature(Inert(), initialState: 0, counters: counters)
    var second: Feature<Inert>? = Feature(Inert(), initialState: 0, counters: counters)
    first?.send(1)  // schedules a drain task that holds the feature while it runs
    await counters.waitForFeatures(atMost: 2)  // already true
    let waiter = TestBubble.task {
      await counters.waitForFeatures(atMost: 0)
      return counters.features
    }
    let one = TestBubble.task {
      await counters.waitForFeatures(atMost: 1)
      return counters.features
    }
    await first?.finish()
    first = nil
    #expect(await one.value <= 1)
    second = nil
    #expect(await waiter.value == 0)
    #expect(first == nil && second == nil)
  }
}
