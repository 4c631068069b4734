import ActorMVVM
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
package final class ScopeExecutor: TaskExecutor, Sendable {
  private struct State {
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

  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    state.withLock { state in
      state.pending += 1
      state.enqueued &+= 1
    }
    Quiescence.scopeJobEnqueued()
    DispatchQueue.global().async { [self] in
      job.runSynchronously(on: asUnownedTaskExecutor())
      let ready = state.withLock { state -> [UnsafeContinuation<Quiescence.Idle, Never>] in
        state.pending -= 1
        guard state.pending == 0, !state.waiters.isEmpty else { return [] }
        defer { state.waiters = [:] }
        return Array(state.waiters.values)
      }
      Quiescence.scopeJobFinished()
      for waiter in ready { waiter.resume(returning: .idle) }
    }
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
