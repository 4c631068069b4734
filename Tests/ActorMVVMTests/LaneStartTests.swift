import ActorMVVMJobCount
import ActorMVVMSupport
import Dispatch
import Testing

@testable import ActorMVVM

/// Counts the jobs it is handed and runs them on the global concurrent executor.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class CountingExecutor: TaskExecutor {
  private let count = Locked(0)
  var jobs: Int { count.withLock { $0 } }

  func enqueue(_ job: consuming ExecutorJob) {
    count.withLock { $0 += 1 }
    globalConcurrentExecutor.enqueue(job)
  }
}

/// A default actor a run hops to.
private actor Hop {
  func touch() {}
}

/// What the start lane (the path below OS 26) stands on, each a path of the
/// runtime that, if it were not taken, would fail one of these: the task's
/// first job reaches the run's executor while the task is created (so
/// tickets follow the order of creation), and every later job reaches it too
/// (so it can hand them to the inner executor: a test bubble's, which
/// counts them).
@Suite("Start lane: the runtime's paths under it")
struct LaneStartTests {
  @Test("A run's first job is enqueued on its executor synchronously, while its task is created")
  func firstJobAtCreation() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let lane = StartLane()
    let inner = CountingExecutor()
    let executor = LaneStart(lane: lane, inner: inner, hold: nil)
    // The lane is busy, so the first job cannot have run when this checks.
    let gate = DispatchSemaphore(value: 0)
    lane.queue.async { gate.wait() }
    let task = Task.detached(executorPreference: executor) {}
    #expect(executor.hasTakenFirstJob)
    #expect(inner.jobs == 0)
    gate.signal()
    await task.value
  }

  @Test(
    "Every later job goes to the inner executor: after an actor hop, a yield, a continuation resumed from a Dispatch queue, and a child task's start"
  )
  func laterJobsGoInner() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let inner = CountingExecutor()
    let seen = Locked<[String: Int]>([:])
    await StartLane().detached(on: inner, priority: nil) {
      seen.withLock { $0["first slice"] = inner.jobs }
      await Hop().touch()
      seen.withLock { $0["after hop"] = inner.jobs }
      await Task.yield()
      seen.withLock { $0["after yield"] = inner.jobs }
      // A resume that lands before the task has suspended lets it go on
      // without a job, so the resume is repeated until a suspension is seen.
      // If resumed jobs did not reach the inner executor, none would be.
      for _ in 0..<1_000 {
        let before = inner.jobs
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          DispatchQueue.global().async { continuation.resume() }
        }
        if inner.jobs > before { break }
      }
      seen.withLock { $0["after resume"] = inner.jobs }
      async let child = inner.jobs
      let inChild = await child
      seen.withLock { $0["in child"] = inChild }
    }.value
    let counts = seen.withLock { $0 }
    #expect(counts["first slice"] == 0)
    // The actor's job and the hop back.
    #expect((counts["after hop"] ?? 0) >= 2)
    #expect((counts["after yield"] ?? 0) > (counts["after hop"] ?? 0))
    #expect((counts["after resume"] ?? 0) > (counts["after yield"] ?? 0))
    #expect((counts["in child"] ?? 0) > (counts["after resume"] ?? 0))
  }

  @Test("First slices run one at a time, in the order their tasks were created; each ends at its first suspension")
  func ticketOrder() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let lane = StartLane()
    let events = Locked<[String]>([])
    var tasks: [Task<Void, Never>] = []
    for n in 0..<32 {
      tasks.append(
        lane.detached(on: nil, priority: nil) {
          events.withLock { $0.append("\(n) began") }
          events.withLock { $0.append("\(n) suspends") }
          await Task.yield()
          events.withLock { $0.append("\(n) resumed") }
        })
    }
    for task in tasks { await task.value }
    let firstSlices = events.withLock { $0 }.filter { !$0.hasSuffix("resumed") }
    #expect(firstSlices == (0..<32).flatMap { ["\($0) began", "\($0) suspends"] })
  }

  @Test("In a test bubble, a first job waiting its turn holds the bubble's idle open until its slice ends")
  func holdsIdleOpen() async {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    let scope = ScopeExecutor()
    let lane = StartLane()
    let gate = DispatchSemaphore(value: 0)
    await TaskScope.binding(scope) {
      lane.queue.async { gate.wait() }
      let task = lane.detached(on: scope, priority: nil) {}
      #expect(scope.pendingJobs == 1)
      gate.signal()
      await task.value
    }
    #expect(await scope.untilIdle() == .idle)
    #expect(scope.pendingJobs == 0)
  }

  @Test("A job's priority picks the Dispatch class its first slice runs at")
  func qos() {
    #expect(DispatchQoS.QoSClass(JobPriority(TaskPriority.userInitiated)) == .userInitiated)
    #expect(DispatchQoS.QoSClass(JobPriority(TaskPriority.medium)) == .default)
    #expect(DispatchQoS.QoSClass(JobPriority(TaskPriority.utility)) == .utility)
    #expect(DispatchQoS.QoSClass(JobPriority(TaskPriority.background)) == .background)
  }
}
