import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMOperators
import ActorMVVMSupport
import ActorMVVMTesting
import Dispatch
import Testing

/// Every kind of job is counted (Guarantees, "Virtual time is exact"): each
/// test starts work along one path and settles with no gate of its own; if
/// the path bypassed the count, `settle()` would return while the work still
/// runs and the sleeper would not be there yet.
@Suite("The job count sees every path")
struct JobCountTests {
  @Test("A main-actor task's jobs are counted: its sleeper is there when settle returns")
  func mainActorJobs() async {
    let clock = TestClock()
    let task = Task { @MainActor in
      _ = (0..<10_000).reduce(0, +)
      try await clock.sleep(for: .seconds(1))
    }
    await clock.settle()
    #expect(clock.sleeperCount == 1)
    task.cancel()
  }

  @Test("A task resumed after Task.yield() is counted, on the pool and on the main actor")
  func yields() async {
    let clock = TestClock()
    let pool = Task {
      for _ in 0..<20 { await Task.yield() }
      try await clock.sleep(for: .seconds(1))
    }
    let main = Task { @MainActor in
      for _ in 0..<20 { await Task.yield() }
      try await clock.sleep(for: .seconds(2))
    }
    await clock.settle()
    #expect(clock.sleeperCount == 2)
    pool.cancel()
    main.cancel()
  }

  @Test("A real-time sleep due at once is counted at once, with no timer")
  func zeroSleep() async {
    let clock = TestClock()
    let task = Task {
      try await Task.sleep(for: .zero)
      try await clock.sleep(for: .seconds(1))
    }
    await clock.settle()
    #expect(clock.sleeperCount == 1)
    task.cancel()
  }

  @Test("A pending real-time timer is not idle: a wait waits for it instead of failing")
  func pendingRealTimeTimer() async {
    let clock = TestClock()
    let task = Task {
      // Real time, as an app's own code might; the wait must not call this "nothing can run".
      try await Task.sleep(for: .milliseconds(50))
      try await clock.sleep(for: .seconds(1))
    }
    #expect(await clock.waitForSleepers(1))
    task.cancel()
  }

  @Test("A cancelled real-time sleep's timer, still pending, does not keep the process from idle")
  func cancelledSleepIsNotWaitedFor() async {
    // An hour: the first wait for idle waits for the whole process, which
    // under load (the full suite beside two busy cores) took 27 s once,
    // when this sleep was 5 s and its timer had fired before the check.
    let sleeper = Task { try await Task.sleep(for: .seconds(3_600)) }
    #expect(await Quiescence.untilIdle() == .idle)  // asleep: its timer is pending
    #expect(Quiescence.hasTimer(dueWithin: .seconds(7_200)))
    sleeper.cancel()
    _ = try? await sleeper.value
    #expect(await Quiescence.untilIdle() == .idle)
    // Idle came while the timer was still pending: it did not wait for it.
    #expect(Quiescence.hasTimer(dueWithin: .seconds(7_200)))
  }

  @Test("A task that is a default actor's caller, then a child's, is counted through each hop")
  func actorHops() async {
    actor Counter {
      var value = 0
      func add() { value += 1 }
    }
    let clock = TestClock()
    let counter = Counter()
    let task = Task {
      await counter.add()
      await Task { await counter.add() }.value
      try await clock.sleep(for: .seconds(1))
    }
    await clock.settle()
    #expect(clock.sleeperCount == 1)
    #expect(await counter.value == 2)
    task.cancel()
  }

  @Test("The self-check is silent on this toolchain: every path runs through the counting executors")
  func selfCheckPasses() async {
    #expect(Quiescence.wasInstalledAtLoad)
    #expect(await Quiescence.selfCheck() == [])
  }

  @Test("The self-check names a path whose jobs bypass the counting executors")
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  func selfCheckFindsABypass() async {
    // A task with a task-executor preference runs on that executor: a real
    // path around the count, standing in for a toolchain that stops routing
    // main-actor jobs through it.
    let outside = OutsideExecutor()
    let missing = await Quiescence.selfCheck([
      (.globalPool, { await Task.detached { Quiescence.isRunningOnCountedPool }.value }),
      (.mainActor, { await Task(executorPreference: outside) { Quiescence.isRunningOnCountedPool }.value }),
    ])
    #expect(missing == [.mainActor])
    let message = Quiescence.message(missing: missing)
    #expect(message.contains("a main-actor job"))
    #expect(message.contains(Quiescence.toolchain))
  }

  @Test("When a path is not taken, every virtual-time wait fails at once naming it, instead of guessing")
  func brokenRuntimeFailsLoudly() async {
    let clock = TestClock()
    await Quiescence.$simulatedMissingPaths.withValue([.afterYield]) {
      await withKnownIssue {
        #expect(await clock.waitForSleepers(1) == false)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("a task resumed after Task.yield()") }
      }
      await withKnownIssue {
        #expect(await clock.settle() == false)
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains(Quiescence.toolchain) }
      }
      await withKnownIssue {
        await clock.advance(by: .seconds(1))
      } matching: { issue in
        issue.comments.contains { $0.rawValue.contains("cannot move time") }
      }
    }
    #expect(clock.now == TestClock.Instant())  // the advance did not move time
  }

  @Test("Two sleepers due at one instant wake in the order they began sleeping, each settled before the next")
  func sameInstantOrder() async {
    let clock = TestClock()
    let order = Locked<[String]>([])
    var tasks: [Task<Void, Never>] = []
    for name in ["b", "a", "c"] {
      tasks.append(
        Task {
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
    let consumer = Task {
      var received: [Int] = []
      do {
        for try await value in timed { received.append(value) }
      } catch { return (received, true) }
      return (received, false)
    }
    // The timeout's timer (due at 1 s) starts before the producer's sleep
    // (also due at 1 s): the tie rule, not the sleep order, decides.
    await clock.waitForSleepers(1)
    let producer = Task {
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

/// An executor outside the count: runs each job on a queue of its own.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class OutsideExecutor: TaskExecutor {
  private let queue = DispatchQueue(label: "outside")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}

/// A wait stalled by work that never parks ends at its bound and names it.
@Suite("A stalled wait says what keeps the process busy")
struct StallTests {
  @Test("A task yielding forever: the wait fails at its bound, naming the task enqueued most, instead of hanging")
  func yieldSpinnerIsNamed() async {
    let clock = TestClock()
    let spinner = Task.detached {
      while !Task.isCancelled { await Task.yield() }
    }
    await Quiescence.$stallBound.withValue(.milliseconds(300)) {
      await withKnownIssue {
        #expect(await clock.settle() == false)
      } matching: { issue in
        issue.comments.contains { comment in
          comment.rawValue.contains("never idle") && comment.rawValue.contains("enqueued")
            && comment.rawValue.contains("times")
        }
      }
    }
    spinner.cancel()
    await spinner.value
    #expect(await clock.settle())  // once it stops, idle is known again
  }
}
