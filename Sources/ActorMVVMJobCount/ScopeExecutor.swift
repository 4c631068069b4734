import ActorMVVM
import ActorMVVMSupport
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The job count's public-API tier: a counting `TaskExecutor` that one test
/// bubble's tasks prefer, so "nothing can run" is known for that bubble
/// alone.
///
/// **How.** A bubble (ActorMVVMTesting's `withTestBubble`) runs the test's
/// body with this executor as its task-executor preference and binds it in
/// ``TaskScope`` for the library's tasks, which start with it as their
/// preference. The runtime then enqueues here every job of those tasks —
/// after a `Task.yield()`, after a sleep (a zero one at once; a real-time one
/// when it is due), after a continuation is resumed from anywhere, and the
/// jobs of default actors they call — and structured children (`async let`,
/// task groups) inherit the preference. A job is counted when it is
/// enqueued and uncounted when it has run; it runs on Dispatch's global
/// queue, so threads and parallelism stay real. All of this is public API
/// (SE-0417: iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2).
///
/// **Not seen** (each pinned by `ScopeTierTests`): main-actor jobs (no task
/// executor runs the main actor), a `Task {}` or `Task.detached` the code
/// under test starts itself (an unstructured task does not inherit a
/// preference), a task waiting on a real-time timer until it is due, and
/// work on threads or queues of its own. Idle is declared while they run.
///
/// **Also counted process-wide.** Where the executor-factory tier is
/// installed, each job is reported to it as well, so a wait outside the
/// bubble does not take the bubble's work for idle.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
package final class ScopeExecutor: TaskExecutor, TaskScopeLedger, Sendable {
  private struct State {
    /// The library's tasks started in the bubble and not yet returned, by entry.
    var tasks: [UInt64: String] = [:]
    var nextTask: UInt64 = 0
    /// Jobs enqueued and not yet run to their end.
    var pending = 0
    /// Jobs enqueued since creation.
    var enqueued: UInt64 = 0
    var nextWaiter: UInt64 = 0
    var waiters: [UInt64: UnsafeContinuation<Quiescence.Idle, Never>] = [:]
  }

  private let state = Locked(State())

  /// A bubble's executor with nothing enqueued.
  package init() {}

  /// Jobs enqueued here since creation (for tests of the paths).
  package var jobsEnqueued: UInt64 { state.withLock { $0.enqueued } }

  /// Jobs enqueued and not yet run to their end.
  package var pendingJobs: Int { state.withLock { $0.pending } }

  package func taskStarted(_ name: String) -> UInt64 {
    state.withLock { state in
      state.nextTask &+= 1
      state.tasks[state.nextTask] = name
      return state.nextTask
    }
  }

  package func taskEnded(_ entry: UInt64) {
    _ = state.withLock { $0.tasks.removeValue(forKey: entry) }
  }

  /// The library's tasks started in the bubble that have not returned, by
  /// name, oldest first.
  package var unfinishedTasks: [String] {
    state.withLock { state in state.tasks.keys.sorted().compactMap { state.tasks[$0] } }
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    state.withLock { state in
      state.pending += 1
      state.enqueued &+= 1
    }
    Quiescence.scopeJobEnqueued()
    DispatchQueue.global().async { [self] in
      job.runSynchronously(on: asUnownedTaskExecutor())
      pendingEnded()
    }
  }

  /// Outside work counts as a job from its start to its end.
  package func outsideWorkBegan() {
    state.withLock { $0.pending += 1 }
    Quiescence.scopeJobEnqueued()
  }

  package func outsideWorkEnded() { pendingEnded() }

  /// A job, or a unit of outside work, ended: the waiters go once none is left.
  private func pendingEnded() {
    let ready = state.withLock { state -> [UnsafeContinuation<Quiescence.Idle, Never>] in
      state.pending -= 1
      guard state.pending == 0, !state.waiters.isEmpty else { return [] }
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    Quiescence.scopeJobFinished()
    for waiter in ready { waiter.resume(returning: .idle) }
  }

  /// A probe: runs its path with `executor` preferred, returns once done.
  package typealias Probe = @Sendable (_ executor: ScopeExecutor) async -> Void

  /// One probe per path, each run on a fresh executor and checked by the
  /// jobs it brought there: a task's start is one; the path must bring the
  /// rest.
  package static let probes: [(BubblePath, minimumJobs: UInt64, Probe)] = [
    (
      .libraryTask, 1,
      { executor in _ = await TaskScope.task(preferring: executor, named: "probe", immediate: false) {}?.value }
    ),
    (.afterYield, 2, { executor in await Task(executorPreference: executor) { await Task.yield() }.value }),
    (
      .defaultActor, 2,
      { executor in await Task(executorPreference: executor) { await ProbeActor().yieldInside() }.value }
    ),
    (
      .afterOutsideResume, 2,
      { executor in
        await Task(executorPreference: executor) {
          await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // Resumed only once the task's job has ended (it has parked): a
            // resume that came first would let it run on without a job.
            DispatchQueue.global().async {
              while executor.pendingJobs > 0 {}
              continuation.resume()
            }
          }
        }.value
      }
    ),
  ]

  /// Runs `probes`, each on a fresh executor, and returns the paths whose
  /// probe brought no job beyond its start.
  package static func selfCheck(
    _ probes: [(BubblePath, minimumJobs: UInt64, Probe)] = probes
  ) async -> [BubblePath] {
    var missing: [BubblePath] = []
    for (path, minimum, probe) in probes {
      let executor = ScopeExecutor()
      await probe(executor)
      _ = await executor.untilIdle()
      if executor.jobsEnqueued < minimum { missing.append(path) }
    }
    return missing
  }

  /// The check, run once per process, the first time the tier decides a wait.
  private static let check = Task { await selfCheck() }

  /// Why the tier cannot decide in this process, if the check found a path it misses.
  package static func checkedVerdict() async -> String? {
    let missing = await check.value
    guard !missing.isEmpty else { return nil }
    return message(missing: missing)
  }

  /// What a wait says when paths are missing.
  package static func message(missing: [BubblePath]) -> String {
    "the test bubble's job count cannot know when its work is idle: on this toolchain (\(Quiescence.toolchain)) "
      + missing.map(\.rawValue).joined(separator: ", ")
      + " did not reach the bubble's executor, so virtual time would move while that work runs"
  }

  /// Suspends until no job of this bubble is queued or running — the
  /// caller's own job having ended, if it is one of them. ``Quiescence/Idle/cancelled``
  /// at once if the calling task is cancelled; ``Quiescence/Idle/busy(_:)``
  /// if the bubble never stopped for ``Quiescence/stallBound``.
  package func untilIdle() async -> Quiescence.Idle {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiter &+= 1
      return state.nextWaiter
    }
    let bound = Quiescence.stallBound
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Quiescence.Idle, Never>) in
        let verdict = state.withLock { state -> Quiescence.Idle? in
          if Task.isCancelled { return .cancelled }
          if state.pending == 0 { return .idle }
          state.waiters[id] = continuation
          return nil
        }
        if let verdict { return continuation.resume(returning: verdict) }
        let (seconds, attoseconds) = bound.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { [self] in
          let (waiter, pending) = state.withLock { ($0.waiters.removeValue(forKey: id), $0.pending) }
          waiter?.resume(
            returning: .busy("the test bubble's tasks never stopped for \(bound) (\(pending) job(s) runnable)"))
        }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: .cancelled)
    }
  }
}

/// The paths the task-executor tier relies on: each must bring a job to
/// the bubble's executor.
package enum BubblePath: String, CaseIterable, Sendable {
  case libraryTask = "a library task's first job"
  case afterYield = "a bubble task resumed after Task.yield()"
  case defaultActor = "a default actor's job for a bubble task"
  case afterOutsideResume = "a bubble task resumed by a continuation from a Dispatch queue"
}

/// The default actor the self-check runs a bubble task on.
private actor ProbeActor {
  /// Suspends on the actor: the task comes back as the actor's job.
  func yieldInside() async { await Task.yield() }
}

extension Quiescence {
  /// The job count's tiers, best first.
  package enum Tier: String, Equatable, Sendable {
    /// Counting main and default executors on the runtime's executor
    /// factory (SPI; Linux): every job of the process.
    case executorFactory = "executor factory (process-wide)"
    /// A counting task executor per test bubble (public API; OS 15): the
    /// bubble's library tasks and their structured children.
    case taskExecutor = "task executor (per test bubble)"
    /// Neither: waits say they cannot know.
    case none = "none"
  }

  /// Whether `ACTORMVVM_JOB_COUNT=task-executor` is set, which keeps the
  /// executor-factory tier from installing: Linux then runs what an Apple
  /// build runs.
  package static var taskExecutorTierForced: Bool {
    guard let value = getenv("ACTORMVVM_JOB_COUNT") else { return false }
    return String(cString: value) == "task-executor"
  }

  /// The tier a wait on the calling task uses: the executor factory where it
  /// is installed, else the bubble's task executor if the task is in one.
  package static var tierInUse: Tier {
    if isInstalled { return .executorFactory }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), TaskScope.bound is ScopeExecutor {
      return .taskExecutor
    }
    return .none
  }

  /// The calling task's bubble executor, if it is in one (and the OS has them).
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  package static var currentScope: ScopeExecutor? { TaskScope.bound as? ScopeExecutor }
}

extension Quiescence {
  /// Runs `body` in a job-count scope of its own — a ``ScopeExecutor`` that
  /// its task prefers and binds for the library's tasks, as a test bubble
  /// does — where the process-wide count is not installed and task executors
  /// exist: how a program that is not a test (the REPL's script mode) gets
  /// exact virtual time in the task-executor tier. Where the process-wide
  /// count is installed, the task is already in a scope, or the OS has no
  /// task executors, `body` runs as it is.
  ///
  /// Isolation: `body` runs on the caller's actor. Cancellation passes
  /// through to `body`; nothing is buffered.
  package static func withScopeWhereNeeded<R>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> R
  ) async -> R {
    if !isInstalled, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), currentScope == nil {
      let executor = ScopeExecutor()
      return await withTaskExecutorPreference(executor, isolation: isolation) {
        await TaskScope.binding(executor, isolation: isolation, body)
      }
    }
    return await body()
  }
}
