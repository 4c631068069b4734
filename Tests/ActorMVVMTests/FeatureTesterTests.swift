import ActorMVVM
import ActorMVVMTesting
import Testing

@Suite("FeatureTester")
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
      await tester.finish()
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
}

@Suite("TestClock")
struct TestClockTests {
  @Test("advance wakes exactly the due sleepers, earliest first")
  func advanceWakesDue() async throws {
    let testClock = TestClock()
    let order = EventRelay<Int>()
    let woken = order.values
    let tasks = [3, 1, 2].map { seconds in
      Task {
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
    let task = Task { try await testClock.sleep(for: .seconds(1)) }
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
}
