import Dispatch

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Knows — does not guess — when nothing in the process can run without
/// time moving: the one question every virtual-time tool asks
/// (`TestClock.advance`, `Marble`, the REPL's script clock).
///
/// **How.** ``install()`` sets the concurrency runtime's global-enqueue
/// hooks (`swift_task_enqueueGlobal_hook` and the delayed and main-executor
/// ones, exported by the runtime on Linux and Apple platforms). From then on
/// every job that the global concurrent executor or the main executor would
/// run is counted when it is enqueued and uncounted when it has run; the
/// hook runs it on the same Dispatch queue the runtime would have used, so
/// threads, priorities and parallelism stay real (the thread sanitizer still
/// sees real races). A default actor's queue is drained by one such job, so
/// actors are counted too. So "idle" — the count at zero — covers the
/// runtime's own tasks (mailbox drains, effects, operator pumps and timers,
/// relay deliveries) *and* every `Task {}` the code under test starts.
///
/// **Why process-wide.** A per-test `TaskExecutor` preference (SE-0417)
/// does not follow an unstructured `Task {}`, and a job's task-locals cannot
/// be read from the hook, so routing jobs by test is not possible without
/// missing some. Counting every job is sound: when the whole process is idle,
/// every test in it is. It costs latency, never correctness: a virtual-time
/// wait in one test also waits for jobs of tests running beside it, which
/// end or park. Nothing is captured or serialised; other tests run as
/// before.
///
/// **What is not seen:** work on threads or Dispatch queues of your own,
/// network I/O, and jobs of actors with a custom executor or of tasks with
/// a task-executor preference. Like a request on the wire, these are
/// "outside": idle is declared while they run, and what they resume is
/// counted from then on. Jobs already queued when ``install()`` runs are
/// not counted; install before starting the work to be watched (the tools
/// above do).
///
/// Production code never calls ``install()``: without it nothing here runs.
@usableFromInline
package enum Quiescence {
  fileprivate typealias Original = @convention(thin) (UnownedJob) -> Void
  fileprivate typealias Hook = @convention(thin) (UnownedJob, Original) -> Void
  fileprivate typealias DelayOriginal = @convention(thin) (UInt64, UnownedJob) -> Void
  fileprivate typealias DelayHook = @convention(thin) (UInt64, UnownedJob, DelayOriginal) -> Void
  fileprivate typealias DeadlineOriginal =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob) -> Void
  fileprivate typealias DeadlineHook =
    @convention(thin) (Int64, Int64, Int64, Int64, Int32, UnownedJob, DeadlineOriginal) -> Void

  private struct State {
    var installed = false
    /// Jobs enqueued through the hooks and not yet run to their end.
    var runnable = 0
    var nextWaiter: UInt64 = 0
    var waiters: [UInt64: UnsafeContinuation<Bool, Never>] = [:]
  }

  private static let state = Locked(State())

  /// Whether the hooks are in place in this process.
  package static var isInstalled: Bool { state.withLock { $0.installed } }

  /// Sets the runtime's enqueue hooks, once per process; later calls do
  /// nothing. Safe to call from any thread. Returns false where the runtime
  /// exports no hooks (then ``untilIdle()`` cannot know, and says so by
  /// trapping: a virtual-time tool on such a runtime would be guessing).
  @discardableResult
  package static func install() -> Bool {
    state.withLock { state -> Bool in
      if state.installed { return true }
      guard let handle = dlopen(nil, RTLD_NOW),
        let global = dlsym(handle, "swift_task_enqueueGlobal_hook"),
        let delay = dlsym(handle, "swift_task_enqueueGlobalWithDelay_hook"),
        let deadline = dlsym(handle, "swift_task_enqueueGlobalWithDeadline_hook"),
        let main = dlsym(handle, "swift_task_enqueueMainExecutor_hook")
      else { return false }
      // Each hook ignores the runtime's own enqueue (the last argument)
      // and counts the job instead.
      global.assumingMemoryBound(to: Hook?.self).pointee = { job, _ in
        Quiescence.enqueue(job, on: .global())
      }
      main.assumingMemoryBound(to: Hook?.self).pointee = { job, _ in
        Quiescence.enqueue(job, on: .main)
      }
      delay.assumingMemoryBound(to: DelayHook?.self).pointee = { nanoseconds, job, _ in
        Quiescence.enqueue(job, afterNanoseconds: nanoseconds)
      }
      deadline.assumingMemoryBound(to: DeadlineHook?.self).pointee = { seconds, nanoseconds, _, _, clock, job, _ in
        Quiescence.enqueue(job, atSeconds: seconds, nanoseconds: nanoseconds, clock: clock)
      }
      state.installed = true
      return true
    }
  }

  /// Suspends until no counted job is queued or running — the caller's own
  /// job having ended — and returns true; returns false at once if the
  /// calling task is cancelled (then nothing is known).
  ///
  /// Called from a counted job, it returns once everything else has parked:
  /// its own job counts until the task suspends here.
  package static func untilIdle() async -> Bool {
    precondition(isInstalled, "Quiescence.untilIdle() before install(): idleness cannot be known")
    let id = state.withLock { state -> UInt64 in
      state.nextWaiter &+= 1
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (waiter: UnsafeContinuation<Bool, Never>) in
        let verdict = state.withLock { state -> Bool? in
          if Task.isCancelled { return false }
          if state.runnable == 0 { return true }
          state.waiters[id] = waiter
          return nil
        }
        if let verdict { waiter.resume(returning: verdict) }
      }
    } onCancel: {
      let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume(returning: false)
    }
  }

  // MARK: The hooks

  /// Why `@unchecked Sendable` is safe: `UnownedJob` is an unowned
  /// reference to a job the runtime hands the hook to be run exactly once.
  /// The hook keeps no other reference: the job moves, whole, to the one
  /// Dispatch block that runs it (and, for a delayed job, through one
  /// `asyncAfter` block to that one), which is what the runtime's own global
  /// executor does with it. Nothing reads or writes the job concurrently, so
  /// there is nothing to race on. `QuiescenceStressTests.idleMeansNothingRuns`
  /// drives thousands of jobs through this hand-off under the thread
  /// sanitizer (`Scripts/stress.sh`), which would report a race here.
  private struct Handoff: @unchecked Sendable {
    let job: UnownedJob
  }

  fileprivate static func enqueue(_ job: UnownedJob, on queue: DispatchQueue) {
    state.withLock { $0.runnable += 1 }
    let handoff = Handoff(job: job)
    let isMain = queue === DispatchQueue.main
    queue.async {
      if isMain {
        handoff.job.runSynchronously(on: MainActor.sharedUnownedExecutor)
      } else {
        runOnGenericExecutor(handoff.job, genericExecutor)
      }
      finished()
    }
  }

  fileprivate static func enqueue(_ job: UnownedJob, afterNanoseconds nanoseconds: UInt64) {
    let handoff = Handoff(job: job)
    // Not counted while the delay runs: a job waiting for real time is not
    // runnable. Counted from when it is due.
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds))) {
      enqueue(handoff.job, on: .global())
    }
  }

  private static func finished() {
    let waiters = state.withLock { state -> [UnsafeContinuation<Bool, Never>] in
      state.runnable -= 1
      guard state.runnable == 0, !state.waiters.isEmpty else { return [] }
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: true) }
  }

  /// Enqueues `job` once the runtime's clock `clock` reaches the deadline.
  fileprivate static func enqueue(_ job: UnownedJob, atSeconds seconds: Int64, nanoseconds: Int64, clock: Int32) {
    enqueue(job, afterNanoseconds: nanosecondsUntil(seconds, nanoseconds, clock: clock))
  }

  /// The time from now until a deadline on the runtime's clock `clock`
  /// (1: continuous, 2: suspending, as `swift_get_time` numbers them).
  private static func nanosecondsUntil(_ seconds: Int64, _ nanoseconds: Int64, clock: Int32) -> UInt64 {
    var nowSeconds: Int64 = 0
    var nowNanoseconds: Int64 = 0
    swiftGetTime(&nowSeconds, &nowNanoseconds, clock)
    let delta = (seconds - nowSeconds) * 1_000_000_000 + (nanoseconds - nowNanoseconds)
    return delta > 0 ? UInt64(delta) : 0
  }

  /// The runtime's generic executor (`SerialExecutorRef::generic()`: no
  /// identity, no witness table), which the global executor runs jobs on.
  private static let genericExecutor = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)
}

/// Runs a job as the runtime's global executor does.
@_silgen_name("swift_job_run")
private func runOnGenericExecutor(_ job: UnownedJob, _ executor: UnownedSerialExecutor)

/// The current time on one of the runtime's clocks.
@_silgen_name("swift_get_time")
private func swiftGetTime(
  _ seconds: UnsafeMutablePointer<Int64>, _ nanoseconds: UnsafeMutablePointer<Int64>, _ clock: Int32)
