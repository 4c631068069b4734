import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import Testing

@Suite("FeatureTester", .testBubble)
struct FeatureTesterTests {
  let testClock = TestClock()

  @Test("An exhaustive run: every state change, fed-back input and output asserted")
  func exhaustive() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await tester.send(.add(2)) {
      $0.count = 1
      $0.total = 2
    }
    await tester.send(.emit(9)) { $0.count = 2 }
    await tester.expectOutput(.emitted(9))
    await tester.send(.load(5, after: .seconds(1)))
    await testClock.waitForSleepers(1)
    await testClock.advance(by: .seconds(1))
    await tester.receive(.loaded(5)) { $0.loaded = [5] }
    await tester.send(.fail("boom"))
    await tester.receive(.failed("boom")) { $0.errors = ["boom"] }
    await tester.finish()
  }

  @Test("Superseded results are discarded in the tester as in the feature")
  func superseded() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await tester.send(.load(1, after: .seconds(10)))
    await testClock.waitForSleepers(1)
    await tester.send(.load(2, after: .seconds(1)))
    await testClock.waitForSleeper(until: .init(offset: .seconds(1)))
    await testClock.advance(by: .seconds(10))
    await tester.receive(.loaded(2)) { $0.loaded = [2] }
    await tester.finish()
  }

  @Test("An unasserted state change fails the test")
  func unassertedStateChange() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await withKnownIssue {
      await tester.send(.add(1))  // count and total changed, nothing asserted
    }
  }

  @Test("Unasserted outputs, inputs and running effects fail at finish")
  func leftovers() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await tester.send(.emit(1)) { $0.count = 1 }
    await tester.send(.load(1, after: .seconds(5)))
    await withKnownIssue {
      await tester.finish(timeout: .milliseconds(50))
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("output") || text.contains("still running")
    }
  }

  @Test("receive fails at once when no effect is running")
  func receiveWithNothingRunning() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await withKnownIssue {
      await tester.receive(.loaded(1))
    }
  }

  @Test("finish() never reports a run that sent its last input and is returning")
  func finishAfterLastInput() async {
    let returning = TestGate()
    let tester = FeatureTester(Lingering(gate: returning), initialState: 0)
    await tester.send(.start)
    await tester.receive(.done) { $0 = 1 }
    returning.open()  // the run is returning: it has sent everything
    await tester.finish()
  }

  @Test("A tester released without finish() records the leftovers")
  func releasedUnfinished() async {
    await withKnownIssue {
      do {
        let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
        await tester.send(.emit(1)) { $0.count = 1 }
      }
    } matching: { issue in
      String(describing: issue).contains("released without finish()")
    }
  }

  @Test("A state mismatch names the fields that differ, not the whole state")
  func diffMessage() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await withKnownIssue {
      await tester.send(.add(2)) {
        $0.count = 1
        $0.total = 3
      }
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("− total: 3") && text.contains("+ total: 2") && !text.contains("count")
    }
  }

  @Test("Non-exhaustive: only asserted fields are checked, receive skips to the input it names, finish is lenient")
  func nonExhaustive() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init(), exhaustivity: .off)
    await tester.send(.add(2)) { $0.total = 2 }  // count changed too: not asserted, not a failure
    await tester.send(.stream(count: 3))
    await tester.receive(.add(2)) { $0.total = 5 }  // .add(0) and .add(1) skipped, but reduced
    #expect(await tester.state.count == 4)
    await tester.send(.emit(7))
    await tester.finish()
  }

  @Test("receive(case:) matches an input's case without spelling its payload")
  func receiveByCase() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init())
    await tester.send(.loadNow(42))
    await tester.receive(case: Probe.Input.loaded) { $0.loaded = [42] }
    await tester.send(.fail("boom"))
    await withKnownIssue {
      await tester.receive(case: Probe.Input.loaded) { $0.errors = ["boom"] }
    }
    await tester.finish()
  }

  @Test("A receive that times out says when a task is asleep on the TestClock")
  func receiveTimeoutNamesTheClock() async {
    let tester = FeatureTester(Probe(clock: testClock), initialState: .init(), clock: testClock)
    await tester.send(.load(1, after: .seconds(3)))
    await testClock.waitForSleepers(1)
    await withKnownIssue {
      await tester.receive(.loaded(1), timeout: .milliseconds(50))
    } matching: { issue in
      String(describing: issue).contains("asleep on the TestClock")
    }
    await tester.cancelEffects()
    await tester.finish()
  }

  @Test("An input sent after its effect returned fails the test")
  func lateSendFails() async {
    let (feature, machine) = Reentrant.makeFeature()
    await feature.finish()
    let tester = FeatureTester(machine, initialState: .init())
    await tester.send(.bridge) { $0.count = 1 }
    await tester.settle()
    machine.bridgeGate.open()
    await machine.sentGate.wait()
    await withKnownIssue {
      await tester.finish()
    } matching: { issue in
      String(describing: issue).contains("after its operation had returned")
    }
  }
}

/// Sends `.done`, then keeps running until its gate opens.
struct Lingering: StateMachine {
  let gate: TestGate
  enum Input: Sendable, Equatable { case start, done }
  typealias Output = Never

  func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .start:
      let gate = self.gate
      return .run { send in
        send(.done)
        await gate.wait()
      }
    case .done:
      state += 1
      return .none
    }
  }
}

@Suite("TestClock", .testBubble)
struct TestClockTests {
  @Test("advance wakes exactly the due sleepers, earliest first")
  func advanceWakesDue() async throws {
    let testClock = TestClock()
    let order = EventRelay<Int>()
    let woken = order.values
    let tasks = [3, 1, 2].map { seconds in
      TestBubble.task {
        try await testClock.sleep(for: .seconds(seconds))
        order.accept(seconds)
      }
    }
    await testClock.waitForSleepers(3)
    await testClock.advance(by: .seconds(1))
    var iterator = woken.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    #expect(testClock.sleeperCount == 2)
    await testClock.advance(by: .seconds(2))
    let rest = [await iterator.next(), await iterator.next()]
    #expect(Set(rest) == [2, 3])
    for task in tasks { try await task.value }
    #expect(testClock.now == .init(offset: .seconds(3)))
  }

  @Test("A cancelled sleeper throws and is removed")
  func cancelledSleeper() async {
    let testClock = TestClock()
    let task = TestBubble.task { try await testClock.sleep(for: .seconds(1)) }
    await testClock.waitForSleepers(1)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(testClock.sleeperCount == 0)
  }

  @Test("A deadline already reached returns at once")
  func pastDeadline() async throws {
    let testClock = TestClock()
    await testClock.advance(by: .seconds(5))
    try await testClock.sleep(until: .init(offset: .seconds(5)))
    #expect(testClock.sleeperCount == 0)
  }

  @Test("A gate opens when sleepers leave, not only when they arrive")
  func gateOnLeave() async throws {
    let testClock = TestClock()
    let sleeper = TestBubble.task { try await testClock.sleep(for: .seconds(1)) }
    await testClock.waitForSleepers(1)
    let emptied = TestBubble.task { await testClock.wait { $0.isEmpty } }
    await testClock.advance(by: .seconds(1))
    #expect(await emptied.value)
    try await sleeper.value
  }

  @Test("A gate predicate may read the clock's now")
  func gateReadsNow() async {
    let testClock = TestClock()
    let sleeper = TestBubble.task { try? await testClock.sleep(for: .seconds(1)) }
    await testClock.wait { _ in testClock.now == .init() && testClock.sleeperCount == 1 }
    await testClock.advance(by: .seconds(1))
    await sleeper.value
  }

  @Test("One advance wakes sleepers in deadline order, each observing its own instant")
  func advanceInDeadlineOrder() async {
    let testClock = TestClock()
    let sleepers = [3, 1, 2].map { seconds in TestBubble.task { try? await testClock.sleep(for: .seconds(seconds)) } }
    await testClock.waitForSleepers(3)
    await testClock.advance(by: .seconds(3))
    for sleeper in sleepers { await sleeper.value }
    let wakes = testClock.wakes.map { "\($0.deadline)@\($0.observedAt)" }
    #expect(wakes == ["1.0 seconds@1.0 seconds", "2.0 seconds@2.0 seconds", "3.0 seconds@3.0 seconds"])
  }

  @Test("advance(by:expectingSleepers:) waits for the sleeper it is meant to wake")
  func advanceExpectingSleepers() async {
    let testClock = TestClock()
    let woke = TestBubble.task { try? await testClock.sleep(for: .seconds(1)) }
    await testClock.advance(by: .seconds(1), expectingSleepers: 1)  // never runs ahead of the sleep
    await woke.value
    #expect(testClock.sleeperCount == 0)
  }
}

/// A load that answers at once, and an unrelated input.
struct QuickLoad: StateMachine {
  struct State: Equatable, Sendable {
    var loaded = false
    var other = 0
  }
  enum Input: Sendable, Equatable { case load, loaded, other }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .load: return .run { send in send(.loaded) }
    case .loaded: state.loaded = true
    case .other: state.other += 1
    }
    return .none
  }
}

@Suite("FeatureTester, non-exhaustive", .testBubble)
struct NonExhaustiveTesterTests {
  @Test("send(.load); send(.other); receive(.loaded): found on every run, whenever .loaded arrived")
  func receiveAcrossAnInterveningSend() async {
    for _ in 0..<200 {
      let tester = FeatureTester(QuickLoad(), initialState: .init(), exhaustivity: .off)
      await tester.send(.load)
      await tester.send(.other) { $0.other = 1 }
      await tester.receive(.loaded) { $0.loaded = true }
      await tester.finish()
    }
  }
}

/// A paginator that re-announces its page on every load, equal or not (a
/// ReactiveSwift property with `skipRepeats: false`).
struct Pager: StateMachine {
  struct State: Equatable, Sendable {
    var page: [String] = []
    var loads = 0
  }
  enum Input: Equatable, Sendable {
    case loaded([String])
    case scrolled
  }
  typealias Output = Never

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .loaded(let page):
      state.page = page
      state.loads += 1
    case .scrolled: break
    }
    return .none
  }
}

@Suite("record: every transition's value (issue #47)", .testBubble)
struct RecordEveryTransitionTests {
  @Test("`.everyTransition` records equal values too, one per reduce; the default records changes")
  func everyTransition() async {
    let tester = FeatureTester(Pager(), initialState: .init())
    let pages = await tester.record(\.page, .everyTransition)
    let changes = await tester.record(\.page)
    await tester.send(.loaded([])) { $0.loads = 1 }
    await tester.send(.loaded(["a"])) {
      $0.page = ["a"]
      $0.loads = 2
    }
    await tester.send(.loaded(["a"])) { $0.loads = 3 }
    await tester.send(.scrolled)
    #expect(pages.values == [[], [], ["a"], ["a"], ["a"]])
    #expect(changes.values == [[], ["a"]])
    await tester.finish()
  }
}
