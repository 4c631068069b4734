import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMOperators
import ActorMVVMSupport
import ActorMVVMTesting
import Dispatch
import Testing

/// Every kind of job of a bubble is seen (Guarantees, "Virtual time is
/// exact"): each test starts work along one path and settles with no gate
/// of its own; if the path bypassed the bubble, `settle()` would return
/// while the work still runs and the sleeper would not be there yet.
@Suite("The bubble sees every path", .testBubble)
struct BubblePathTests {
  @MainActor
  static func busyThenSleep(on clock: TestClock, for duration: Duration, yields: Int = 0) async throws {
    _ = (0..<10_000).reduce(0, +)
    for _ in 0..<yields { await Task.yield() }
    try await clock.sleep(for: duration)
  }

  @MainActor
  static func value() -> Int { (0..<1_000).reduce(0, +) }

  @Test("A bubble task's main-actor jobs are waited for: its sleeper is there when settle returns")
  func mainActorJobs() async {
    let clock = TestClock()
    let task = TestBubble.task { try await Self.busyThenSleep(on: clock, for: .seconds(1)) }
    await clock.settle()
    #expect(clock.sleeperCount == 1)
    task.cancel()
  }

  @Test("A main-actor service an effect-like task awaits: the task is back and asleep when settle returns")
  func mainActorServiceCall() async {
    let clock = TestClock()
    let task = TestBubble.task {
      let value = await Self.value()
      try await clock.sleep(for: .seconds(value > 0 ? 1 : 2))
    }
    await clock.settle()
    #expect(clock.sleeperDeadlines == [TestClock.Instant(offset: .seconds(1))])
    task.cancel()
  }

  @Test("A task resumed after Task.yield() is waited for, off and on the main actor (one yield there)")
  func yields() async {
    let clock = TestClock()
    let pool = TestBubble.task {
      for _ in 0..<20 { await Task.yield() }
      try await clock.sleep(for: .seconds(1))
    }
    let main = TestBubble.task { try await Self.busyThenSleep(on: clock, for: .seconds(2), yields: 1) }
    await clock.settle()
    #expect(clock.sleeperCount == 2)
    pool.cancel()
    main.cancel()
  }

  @Test("A task that is a default actor's caller, then a child's, is waited for through each hop")
  func actorHops() async {
    actor Counter {
      var value = 0
      func add() { value += 1 }
    }
    let clock = TestClock()
    let counter = Counter()
    let task = TestBubble.task {
      await counter.add()
      async let child: Void = counter.add()
      await child
      try await clock.sleep(for: .seconds(1))
    }
    await clock.settle()
    #expect(clock.sleeperCount == 1)
    #expect(await counter.value == 2)
    task.cancel()
  }

  @Test("Two sleepers due at one instant wake in the order they began sleeping, each settled before the next")
  func sameInstantOrder() async {
    let clock = TestClock()
    let order = Locked<[String]>([])
    var tasks: [Task<Void, Never>] = []
    for name in ["b", "a", "c"] {
      tasks.append(
        TestBubble.task {
          try? await clock.sleep(for: .seconds(1))
          // A few hops: with all three woken at once these would interleave.
          for _ in 0..<5 { await Task.yield() }
          order.withLock { $0.append(name) }
        })
      await clock.waitForSleepers(tasks.count)
    }
    await clock.advance(by: .seconds(1))
    #expect(order.withLock { $0 } == ["b", "a", "c"])
  }

  @Test("timeout: an element produced by a task woken at the timer's instant is in time, on every run")
  func timeoutTie() async throws {
    let clock = TestClock()
    let (source, input) = AsyncStream<Int>.makeStream()
    let timed = source.timeout(.seconds(1), clock: clock)
    let consumer = TestBubble.task {
      var received: [Int] = []
      do {
        for try await value in timed { received.append(value) }
      } catch { return (received, true) }
      return (received, false)
    }
    // The timeout's timer (due at 1 s) starts before the producer's sleep
    // (also due at 1 s): the tie rule, not the sleep order, decides.
    await clock.waitForSleepers(1)
    let producer = TestBubble.task {
      try await clock.sleep(for: .seconds(1))
      input.yield(1)
      input.finish()
    }
    await clock.waitForSleepers(2)
    await clock.advance(by: .seconds(1))
    let (received, timedOut) = await consumer.value
    #expect(received == [1])
    #expect(!timedOut)
    _ = try? await producer.value
  }
}

/// A wait stalled by work that never parks ends at its bound and names it.
@Suite("A stalled wait says what keeps the bubble busy", .testBubble)
struct StallTests {
  @Test("A task of the test's yielding forever: the wait fails at its bound, naming the task, instead of hanging")
  func yieldSpinnerIsNamed() async {
    let clock = TestClock()
    let spinner = TestBubble.task {
      while !Task.isCancelled { await Task.yield() }
    }
    await Quiescence.$stallBound.withValue(.milliseconds(300)) {
      await withKnownIssue {
        #expect(await clock.settle() == false)
      } matching: { issue in
        issue.comments.contains { comment in
          comment.rawValue.contains("never stopped") && comment.rawValue.contains("enqueued most")
            && comment.rawValue.contains("not the library's")
        }
      }
    }
    spinner.cancel()
    await spinner.value
    #expect(await clock.settle())  // once it stops, idle is known again
  }
}

/// One test leaves work running forever-ish outside any bubble; its
/// neighbour's waits, in the same process and at the same time, are exact
/// and unaffected.
@Suite("A neighbour's leftover work")
struct NeighbourTests {
  @Test("Leaves a task yielding for a while, unwaited, outside any bubble")
  func leavesASpinner() async {
    Task.detached {
      for _ in 0..<200_000 { await Task.yield() }
    }
  }

  @Test("Its neighbour's TestClock waits are unaffected", .testBubble)
  func neighbourUnaffected() async {
    let clock = TestClock()
    let ticks = Locked<[Int]>([])
    let task = TestBubble.task {
      for tick in 1...5 {
        try? await clock.sleep(for: .seconds(1))
        ticks.withLock { $0.append(tick) }
      }
    }
    for tick in 1...5 {
      #expect(await clock.waitForSleepers(1))
      await clock.advance(by: .seconds(1))
      #expect(ticks.withLock { $0.last } == tick)
    }
    await task.value
  }
}
