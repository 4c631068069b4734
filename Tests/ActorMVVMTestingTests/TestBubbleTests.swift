import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import Dispatch
import Testing

/// The test bubble's count, job kind by job kind: what it sees (its wait
/// returns only once the work is done) and what it does not (its wait
/// returns while the work is still held). Each case asks the bubble's
/// executor directly.
@Suite("Test bubbles: the jobs a bubble counts")
struct TestBubbleTests {
  /// A flag set by the work under test.
  final class Flag: Sendable {
    private let value = Locked(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
  }

  actor Counter {
    var count = 0
    func bump() { count += 1 }
  }

  /// The bubble's executor, from inside the bubble.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  static var scope: ScopeExecutor {
    guard let scope = Quiescence.currentScope else { fatalError("not in a test bubble") }
    return scope
  }

  @Test("A library task and its yields are counted: the wait returns after the work")
  func libraryTaskYields() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    await withTestBubble {
      let done = Flag()
      _ = TaskScope.start(named: "probe 1") {
        for _ in 0..<200 { await Task.yield() }
        done.set()
      }
      #expect(await Self.scope.untilIdle() == .idle)
      #expect(done.isSet)
    }
  }

  @Test("An effect run, its yields, its hops to a default actor and back are counted")
  func effectZeroSleepActor() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    await withTestBubble {
      let counter = Counter()
      let done = Flag()
      let feature = Feature(Relay(counter: counter, done: done), initialState: 0)
      feature.send(.go)
      #expect(await Self.scope.untilIdle() == .idle)
      #expect(done.isSet)
      #expect(await counter.count == 50)
      await feature.finish()
    }
  }

  @Test("A continuation resumed from a Dispatch queue is counted from its resumption")
  func continuationFromOutside() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    await withTestBubble {
      let release = TestGate()
      let resumed = Flag()
      let done = Flag()
      _ = TaskScope.start(named: "probe 2") {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          Task.detached {
            await release.wait()
            DispatchQueue.global().async { continuation.resume() }
          }
        }
        resumed.set()
        for _ in 0..<100 { await Task.yield() }
        done.set()
      }
      // Held by outside work: not seen, so the bubble is idle with the task parked.
      #expect(await Self.scope.untilIdle() == .idle)
      #expect(!resumed.isSet)
      release.open()
      // Counted once resumed: after it has run again, the wait covers the rest.
      while !resumed.isSet { await Task.yield() }
      #expect(await Self.scope.untilIdle() == .idle)
      #expect(done.isSet)
    }
  }

  @Test(
    "Not seen: a running Task {} the code under test starts itself off the main actor, and a task asleep on a real clock"
  )
  func notSeen() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    await withTestBubble {
      let release = Flag()
      let running = Flag()
      // Runs (holding its thread) until released: runnable work the bubble does not count.
      let plain = Task {
        running.set()
        while !release.isSet {}
      }
      while !running.isSet { await Task.yield() }
      let sleeper = TaskScope.start(named: "probe 3") { try? await Task.sleep(for: .seconds(600)) }
      #expect(await Self.scope.untilIdle() == .idle)  // idle, with both still under way
      release.set()
      await plain.value
      sleeper.cancel()
      await sleeper.value
    }
  }

  @Test("A neighbour that yields forever does not delay the bubble's wait")
  func neighbourSpins() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let stop = Flag()
    let neighbour = Task.detached {
      while !stop.isSet { await Task.yield() }
    }
    await withTestBubble {
      let done = Flag()
      _ = TaskScope.start(named: "probe 4") {
        for _ in 0..<50 { await Task.yield() }
        done.set()
      }
      #expect(await Self.scope.untilIdle() == .idle)
      #expect(done.isSet)
    }
    stop.set()
    await neighbour.value
  }

  @Test("A bubble that ends with a library task blocked fails, naming it")
  func blockedTaskAtTheEnd() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let gate = TestGate()
    let messages = Locked<[String]>([])
    let kept = Locked<Feature<Held>?>(nil)
    await withKnownIssue {
      await withTestBubble {
        let feature = Feature(Held(gate: gate), initialState: 0)
        feature.bind(AsyncStream<Held.Input> { _ in })  // never ends
        feature.send(.hold)
        kept.withLock { $0 = feature }
      }
    } matching: { issue in
      messages.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    #expect(
      messages.withLock { $0 } == [
        "The test bubble ended with 2 of the library's tasks still running or blocked: binding of "
          + "Feature<Held>, effect run hold sending Held.Input. End them before the test ends "
          + "(`await feature.finish()`, `await tester.finish()`, cancel a binding, or advance the clock they sleep on)."
      ])
    gate.open()
    await kept.withLock { $0 }?.finish()
  }

  @Test("The same bubble, its feature finished: nothing is left and nothing fails")
  func nothingLeft() async {
    let gate = TestGate()
    await withTestBubble {
      let feature = Feature(Held(gate: gate), initialState: 0)
      feature.bind(AsyncStream<Held.Input> { _ in })
      feature.send(.hold)
      gate.open()
      await feature.finish()
    }
  }

  @Test("The tier's self-check: every path reaches a bubble's executor on this toolchain; a bypass is named")
  func selfCheck() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let found = await ScopeExecutor.selfCheck()
    #expect(found == [], "\(found)")
    // A probe whose path brings nothing stands in for a toolchain that stops routing it.
    let missing = await ScopeExecutor.selfCheck([
      (
        .afterYield, 2,
        { executor in
          await Task(executorPreference: executor) {}.value
          return true
        }
      ),
      (
        .libraryTask, 1,
        { executor in
          await Task(executorPreference: executor) {}.value
          return true
        }
      ),
      (.mainActorFIFO, 0, { _ in false }),
    ])
    #expect(missing == [.afterYield, .mainActorFIFO])
    let message = ScopeExecutor.message(missing: missing)
    #expect(message.contains("a bubble task resumed after Task.yield()") && message.contains(Quiescence.toolchain))
  }

  @Test(
    "Where a path is missing, a TestClock wait fails naming it instead of guessing")
  func bypassFailsLoudly() async {
    await withTestBubble {
      let clock = TestClock()
      await Quiescence.$simulatedMissingScopePaths.withValue([.defaultActor]) {
        await withKnownIssue {
          #expect(await clock.settle() == false)
        } matching: { issue in
          issue.comments.contains { $0.rawValue.contains("a default actor's job for a bubble task") }
        }
      }
    }
  }

  @Test("A bubble that never stops ends its wait at the stall bound, busy; a cancelled wait returns at once")
  func stallAndCancel() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    await withTestBubble {
      let stop = Flag()
      let spinner = TaskScope.start(named: "spinner") {
        while !stop.isSet { await Task.yield() }
      }
      let verdict = await Quiescence.$stallBound.withValue(.milliseconds(200)) { await Self.scope.untilIdle() }
      guard case .busy(let why) = verdict else {
        Issue.record("expected busy, got \(verdict)")
        return
      }
      #expect(why.contains("never stopped for 0.2 seconds"))
      #expect(why.contains("spinner (task "), "the spinner is named: \(why)")
      let waiter = Task { await Self.scope.untilIdle() }
      waiter.cancel()
      #expect(await waiter.value == .cancelled)
      stop.set()
      await spinner.value
    }
  }

  @Test("The leftover names: each once with its count, at most eight, then how many more")
  func summary() {
    #expect(unfinishedSummary(["a", "b", "a"]) == "a ×2, b")
    #expect(
      unfinishedSummary((1...10).map { "t\($0)" }) == "t1, t2, t3, t4, t5, t6, t7, t8 and 2 more")
  }

  @Test("Outside a bubble there is no scope and a wait says what to add; inside, there is one")
  func insideAndOutside() async {
    #expect(TaskScope.bound == nil)
    #expect(!TestBubble.isActive)
    #expect(await Quiescence.untilIdle() == .unknowable(Quiescence.outsideBubble))
    await withTestBubble {
      #expect(Quiescence.currentScope != nil)
      #expect(TestBubble.isActive)
    }
  }

  @Test("A job's task id is the last run of digits in its description; none reads 0")
  func taskIDFromDescription() {
    #expect(ScopeExecutor.taskID(described: "ExecutorJob(id: 42)") == 42)
    #expect(ScopeExecutor.taskID(described: "ExecutorJob(id: 18446744073709551615)") == .max)
    #expect(ScopeExecutor.taskID(described: "Job7(id: 1234)") == 1234)
    #expect(ScopeExecutor.taskID(described: "ExecutorJob(id: 9) ") == 9)
    #expect(ScopeExecutor.taskID(described: "ExecutorJob") == 0)
    #expect(ScopeExecutor.taskID(described: "") == 0)
  }

  @Test("The runtime's descriptions name the task: each bubble task reads its own id, the same after a hop")
  func taskIDOfRunningJobs() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    await withTestBubble {
      let counter = Counter()
      let tasks = (0..<4).map { _ in
        TestBubble.task { () -> (UInt64?, UInt64?) in
          let before = ScopeExecutor.currentTaskID
          await counter.bump()
          await Task.yield()
          return (before, ScopeExecutor.currentTaskID)
        }
      }
      var ids: Set<UInt64> = []
      for task in tasks {
        let (before, after) = await task.value
        #expect(before != nil)
        #expect(before == after)
        if let before { ids.insert(before) }
      }
      #expect(ids.count == 4)
    }
  }
}

/// An effect held on a gate, and a binding that never ends (a sequence
/// that never finishes).
private struct Held: StateMachine {
  let gate: TestGate
  enum Input: Sendable { case hold, bound }
  enum CancelID: Hashable, Sendable, CustomStringConvertible {
    case hold
    var description: String { "hold" }
  }
  typealias Output = Never
  func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .hold:
      return .run(id: CancelID.hold, onFinish: .runToCompletion) { [gate] _ in await gate.wait() }
    case .bound:
      state += 1
      return .none
    }
  }
}

/// Relays `go` into 50 bumps of a shared actor from an effect run, with a
/// yield between, then sets `done`.
private struct Relay: StateMachine {
  let counter: TestBubbleTests.Counter
  let done: TestBubbleTests.Flag
  enum Input: Sendable { case go, finished }
  typealias Output = Never
  func reduce(into state: inout Int, _ input: Input) -> Effect<Input, Never> {
    switch input {
    case .go:
      return .run { [counter, done] send in
        for _ in 0..<50 {
          await Task.yield()
          await counter.bump()
        }
        done.set()
        send(.finished)
      }
    case .finished:
      state += 1
      return .none
    }
  }
}
