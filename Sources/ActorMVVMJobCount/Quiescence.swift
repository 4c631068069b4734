import ActorMVVM
import ActorMVVMJobCountShims
import ActorMVVMSupport
import Dispatch

// The counting executors stand on the concurrency runtime's executor
// factory, which is SPI: the Linux toolchain ships it, Xcode's SDK does not.
// This target is linked only by ActorMVVMTesting and the REPL (never by an
// app's products); where the SPI is not there (an Apple build, or Linux
// with ACTORMVVM_APPLE_BELOW_26, which takes an Apple build's paths), the
// count is not installed and every wait says so (`Idle.unknowable`).
#if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
  @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
#endif

/// Knows — does not guess — when nothing in the process can run without
/// time moving: the one question every virtual-time tool asks
/// (`TestClock.advance`, `Marble`, `FeatureTimeline`, the REPL's script clock).
///
/// **How.** ``install()`` replaces the runtime's two executors — the main
/// executor and the default (global) executor — with counting ones, through
/// the runtime's executor factory entry point (`_createExecutors(factory:)`,
/// the same one `-executor-factory` uses). On Swift 6.3 every job reaches
/// one of those two objects: the runtime's C entry points
/// (`swift_task_enqueueGlobal`, `…MainExecutor`, `…WithDelay`,
/// `…WithDeadline`) forward to them, and `Task.yield()`, `Task.sleep`,
/// `MainActor`'s jobs and default actors' drains call them directly (the
/// legacy enqueue hooks the previous version used are skipped by the last
/// three: a main-actor job, a yield and a sleep were invisible). A job is
/// counted when it is enqueued and uncounted when it has run; it runs on
/// Dispatch as the runtime's own executors do — a main-actor job on the main
/// queue, any other on the global concurrent queue — so threads and
/// parallelism stay real and the thread sanitizer still sees real races.
/// (Two differences from the runtime's pool, which test processes alone
/// see: every job runs at the default quality of service, and the pool is
/// Dispatch's global queue rather than the runtime's own queue of one
/// thread per core.)
///
/// **Which jobs are seen** (each proved at first use by ``selfCheck(_:)``
/// and by a test): main-actor jobs, jobs on the global pool (every `Task {}`
/// and default actor), a task resumed after `Task.yield()` (on the pool or
/// on the main actor), a task resumed after a sleep that is due at once
/// (counted at once, no timer), a task resumed after a real-time sleep
/// (counted from when it is due). **Real-time timers are known:** a sleep
/// on a real clock is a pending timer from the moment it is scheduled. Idle
/// does not wait for them (a cancelled sleep's timer stays pending until its
/// deadline); a wait about to fail awaits those due soon first
/// (``untilIdle(afterTimersDueWithin:)``). **Not seen:** work
/// on threads or Dispatch queues of your own, network I/O, and tasks with a
/// task-executor preference or actors with a custom executor (their
/// executors are not ours); a sleep on a clock whose `Duration` is not
/// `Swift.Duration` is handed to the runtime's own executor, unseen until
/// it resumes. These are "outside": idle is declared while they run, and
/// what they resume is counted from then on.
///
/// **When.** The swap must happen before any task exists: the runtime reads
/// its executor variables without a lock. A process that links
/// ActorMVVMTesting installs at load time (a C constructor, before `main`);
/// the REPL calls ``install()`` as the first statement of its `main`. A
/// later call installs too, and is documented as unsafe for that reason.
/// Without an install nothing here runs: an app's executors are the
/// runtime's own.
///
/// **Why process-wide, and what a stall says.** A job's task-locals cannot
/// be read where it is enqueued, and a task-executor preference is not
/// inherited by an unstructured `Task {}`, so jobs cannot be told apart by
/// test: idle is the whole process's. Work that never parks (a task
/// yielding in a loop) therefore keeps every wait in the process waiting;
/// a wait that has not seen idle within ``stallBound`` (two minutes) ends with
/// ``Idle/busy(_:)``, naming the tasks enqueued most meanwhile, instead of
/// hanging.
///
/// **Self-check.** The mechanism rests on how this toolchain routes jobs,
/// which the custom-executor work is still changing. The first
/// ``untilIdle(waitingForTimersWithin:)`` runs probe jobs along every path
/// above; if any did not come through a counting executor, every wait
/// answers ``Idle/unknowable(_:)`` naming the path and the toolchain,
/// instead of declaring idle while work runs.
package enum Quiescence {
  /// What a wait for idle learned.
  package enum Idle: Equatable, Sendable {
    /// Nothing in the process can run (and the timers awaited have fired).
    case idle
    /// The waiting task was cancelled first: nothing is known.
    case cancelled
    /// Idleness cannot be known in this process; the text says why.
    case unknowable(String)
    /// The process never stopped working for ``stallBound``: something
    /// keeps a job runnable (a task that yields in a loop, or a sequence
    /// pulled forever). The text names the tasks enqueued most meanwhile.
    case busy(String)
  }

  /// How long a wait for idle lasts, at most, while work never stops: a
  /// bound against a hang, not a pause for things to settle (a wait that
  /// reaches idle returns as soon as it does). Two minutes: long enough
  /// for heavy tests running beside the wait (the stress suite under the
  /// thread sanitizer keeps the process busy for ~45 s; a 10 s bound failed
  /// its waits), short of a hang.
  /// (A task-local, so a test of the bound itself can shorten it for its own waits.)
  @TaskLocal package static var stallBound: Duration = .seconds(120)

  /// The real-time horizon a failing wait looks ahead: before a gate
  /// concludes that what it waits for cannot come, it awaits the real-time
  /// timers due within it (one will make something runnable without
  /// virtual time moving); one due later is outside, and named.
  package static let realTimeHorizon: Duration = .seconds(1)

  struct Timer {
    /// Uptime nanoseconds at which the timer is due.
    let deadline: UInt64
  }

  struct State {
    var installed = false
    var installedAtLoad = false
    /// Jobs enqueued through the counting executors and not yet run to their end.
    var runnable = 0
    var nextTimer: UInt64 = 0
    var timers: [UInt64: Timer] = [:]
    var nextWaiter: UInt64 = 0
    var waiters: [UInt64: Waiter] = [:]
    var check = Check.notRun
    /// How many waiting waiters have lasted a while: while any has,
    /// enqueues are tallied by task, to name what keeps the process busy
    /// if the wait stalls. Only ``removeWaiter(_:)`` lowers it.
    var sampling = 0
    var tally: [UInt64: Int] = [:]
    /// Main-actor jobs enqueued whose block has not started: a main queue
    /// that stops being drained shows here.
    var mainQueued = 0
    /// Jobs whose block has started and not finished: a job that blocks its
    /// thread shows here.
    var running = 0

    /// Nothing runnable, and none of `awaited` timers still pending.
    func isQuiet(awaiting awaited: Set<UInt64>) -> Bool {
      runnable == 0 && (awaited.isEmpty || awaited.allSatisfy { timers[$0] == nil })
    }

    /// The wait `id` has lasted a while: from now on enqueues are tallied
    /// (until no waiter that started the tally is left). False if the
    /// wait has already ended.
    mutating func startSampling(_ id: UInt64) -> Bool {
      guard let waiter = waiters[id], !waiter.sampling else { return false }
      waiters[id]?.sampling = true
      sampling += 1
      return true
    }

    /// Removes and returns waiter `id`, if it is still waiting. A waiter
    /// that was sampling stops: the last one to stop clears the tally, so
    /// it never outlives the waits it is for.
    mutating func removeWaiter(_ id: UInt64) -> Waiter? {
      guard let waiter = waiters.removeValue(forKey: id) else { return nil }
      if waiter.sampling {
        sampling -= 1
        if sampling == 0 { tally = [:] }
      }
      return waiter
    }

    /// Removes and returns the waiters for whom the process is now quiet.
    mutating func releaseQuietWaiters() -> [UnsafeContinuation<Idle, Never>] {
      let quiet = waiters.filter { isQuiet(awaiting: $0.value.timers) }.keys
      return quiet.compactMap { removeWaiter($0)?.continuation }
    }
  }

  struct Waiter {
    /// Real-time timers the waiter also waits to see fire.
    let timers: Set<UInt64>
    let continuation: UnsafeContinuation<Idle, Never>
    /// Whether this waiter's enqueues tally is running (it has waited a while).
    var sampling = false
  }

  enum Check {
    case notRun
    case running([UnsafeContinuation<Void, Never>])
    case done(missing: [Path])
  }

  private static let state = Locked(State())

  /// Whether the counting executors are in place in this process.
  package static var isInstalled: Bool { state.withLock { $0.installed } }

  /// Whether they were installed at load time (by ActorMVVMTesting's constructor).
  package static var wasInstalledAtLoad: Bool { state.withLock { $0.installedAtLoad } }

  /// Replaces the runtime's main and default executors with the counting
  /// ones, once per process; later calls do nothing and return true.
  ///
  /// Call it before any task exists (first thing in `main`): the runtime
  /// reads its executor variables without synchronisation, so a swap while
  /// other threads run tasks is a data race. ActorMVVMTesting does it at
  /// load time for every test process.
  /// Returns false, installing nothing, in a build without the runtime's
  /// executor factory (``isAvailable``), or where
  /// `ACTORMVVM_JOB_COUNT=task-executor` keeps it out.
  @discardableResult
  package static func install() -> Bool {
    #if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
      guard !taskExecutorTierForced else { return false }
      let installed = state.withLock { state -> Bool in
        if state.installed { return false }
        _createExecutors(factory: CountingExecutorFactory.self)
        state.installed = true
        return true
      }
      if installed {
        IdleWait.register { _ = await untilIdle() }
        OutsideWork.register(began: scopeJobEnqueued, ended: scopeJobFinished)
      }
      return true
    #else
      return false
    #endif
  }

  /// Whether this build can count jobs at all: Linux, where the toolchain
  /// ships the concurrency runtime's executor factory (SPI). Not in an
  /// Apple build (Xcode's SDK has no SPI) nor in the Apple-SDK profile.
  package static var isAvailable: Bool {
    #if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
      return true
    #else
      return false
    #endif
  }

  /// ActorMVVMTesting's load-time constructor (see `quiescenceInstallAtLoad`).
  fileprivate static func installAtLoad() {
    guard !taskExecutorTierForced, install() else { return }  // a build without the count: nothing was installed
    state.withLock { $0.installedAtLoad = true }
  }

  /// Suspends until no counted job is queued or running — the caller's own
  /// job having ended. Pending real-time timers do not count: idle is
  /// "nothing can run now" (a cancelled `Task.sleep` leaves its timer
  /// pending until its deadline, so counting timers would make idle wait
  /// for sleeps nobody waits for). Returns ``Idle/cancelled`` at once if the
  /// calling task is cancelled, ``Idle/unknowable(_:)`` if the executors are
  /// not installed or the self-check found a path that bypasses them, and
  /// ``Idle/busy(_:)`` if the process never became idle within ``stallBound``.
  ///
  /// Called from a counted job, it returns once everything else has parked:
  /// its own job counts until the task suspends here.
  package static func untilIdle() async -> Idle {
    await untilIdle(awaiting: [])
  }

  /// ``untilIdle()``, after the real-time timers pending now and due within
  /// `bound` have fired: what a wait does before it concludes that "nothing
  /// can run" means "nothing will" (a timer will make something runnable
  /// without virtual time moving). Timers started later are not awaited.
  package static func untilIdle(afterTimersDueWithin bound: Duration) async -> Idle {
    let limit = uptime() &+ nanoseconds(bound)
    let awaited = state.withLock { state in Set(state.timers.filter { $0.value.deadline <= limit }.keys) }
    return await untilIdle(awaiting: awaited)
  }

  /// Whether a real-time timer is pending and due within `bound`.
  package static func hasTimer(dueWithin bound: Duration) -> Bool {
    let limit = uptime() &+ nanoseconds(bound)
    return state.withLock { state in state.timers.values.contains { $0.deadline <= limit } }
  }

  private static func untilIdle(awaiting timers: Set<UInt64>) async -> Idle {
    if !isInstalled, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *), let scope = currentScope {
      if let simulated = simulatedMissingScopePaths { return .unknowable(ScopeExecutor.message(missing: simulated)) }
      if let verdict = await ScopeExecutor.checkedVerdict() { return .unknowable(verdict) }
      return await scope.untilIdle()
    }
    let bubble =
      "; run the test in a test bubble (`@Suite(.testBubble)`, `withTestBubble { }`: iOS 18, macOS 15 and later) "
      + "for the task-executor tier"
    guard isAvailable else {
      return .unknowable(
        "this build has no process-wide job count (it stands on the concurrency runtime's executor SPI, which only "
          + "the Linux toolchain ships) and this task is in no test bubble" + bubble)
    }
    guard isInstalled else {
      return .unknowable(
        (taskExecutorTierForced
          ? "ACTORMVVM_JOB_COUNT=task-executor keeps the process-wide job count out and this task is in no test bubble"
          : "Quiescence is not installed: link ActorMVVMTesting (it installs at load), or call install() first in main")
          + bubble)
    }
    let missing: [Path]
    if let simulated = simulatedMissingPaths { missing = simulated } else { missing = await checkedPaths() }
    guard missing.isEmpty else { return .unknowable(message(missing: missing)) }
    return await waitForIdle(awaiting: timers)
  }

  private static func waitForIdle(awaiting timers: Set<UInt64>) async -> Idle {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiter &+= 1
      return state.nextWaiter
    }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Idle, Never>) in
        let verdict = state.withLock { state -> Idle? in
          if Task.isCancelled { return .cancelled }
          if state.isQuiet(awaiting: timers) { return .idle }
          state.waiters[id] = Waiter(timers: timers, continuation: continuation)
          return nil
        }
        if let verdict { return continuation.resume(returning: verdict) }
        watch(waiter: id, bound: stallBound)
      }
    } onCancel: {
      state.withLock { $0.removeWaiter(id) }?.continuation.resume(returning: .cancelled)
    }
  }

  /// A watchdog on Dispatch (outside the count, so it never keeps the
  /// process busy): after a second of waiting it starts tallying enqueues
  /// by task, until the wait ends (``State/removeWaiter(_:)``: however it
  /// ends); at ``stallBound`` it ends the wait with ``Idle/busy(_:)``,
  /// naming the tasks enqueued most. Nothing if the wait has ended.
  private static func watch(waiter id: UInt64, bound: Duration) {
    let bound = Int(clamping: nanoseconds(bound))
    let start = DispatchTime.now()
    // The user-interactive global queue: its threads are not the ones the
    // counted jobs run on (all at the default quality of service), so a
    // pool saturated by the very work that never parks does not delay it.
    let watchdog = DispatchQueue.global(qos: .userInteractive)
    watchdog.asyncAfter(deadline: start + .nanoseconds(min(1_000_000_000, bound / 2))) {
      let sampling = state.withLock { $0.startSampling(id) }
      guard sampling else { return }
      watchdog.asyncAfter(deadline: start + .nanoseconds(bound)) {
        let (waiter, busiest, counts) = state.withLock { state -> (Waiter?, [(UInt64, Int)], String) in
          let now = uptime()
          let overdue = state.timers.values.filter { $0.deadline <= now }.count
          let counts = """
            \(state.runnable) job(s) runnable: \(state.running) running, \(state.mainQueued) waiting for the main \
            queue; \(state.timers.count) real-time timer(s) pending, \(overdue) of them overdue
            """
          let busiest = state.tally.sorted { $0.value > $1.value }.prefix(3).map { ($0.key, $0.value) }
          return (state.removeWaiter(id), busiest, counts)
        }
        guard let waiter else { return }
        let named = busiest.map { id, count in
          id == 0
            ? "continuation jobs of no task (Task.yield() or a sleep resuming), \(count) times"
            : "task \(id) (enqueued \(count) times)"
        }.joined(separator: ", ")
        waiter.continuation.resume(
          returning: .busy(
            """
            the process was never idle for \(Duration.nanoseconds(bound)): work that never parks keeps every \
            virtual-time wait in the process waiting (a task yielding in a loop, a sequence pulled \
            forever); enqueued most since the wait began: \(named.isEmpty ? "nothing recorded" : named); \
            now \(counts)
            """))
      }
    }
  }

  /// The real-time timers pending now, as durations from now (earliest
  /// first): for a failed wait's message.
  package static var pendingTimers: [Duration] {
    let now = uptime()
    return state.withLock { state in
      state.timers.values.map { .nanoseconds(Int64(clamping: $0.deadline &- min($0.deadline, now))) }.sorted()
    }
  }

  /// "; 2 real-time timer(s) pending, the next in 3.2 seconds (…)", or "".
  package static var pendingTimersNote: String {
    let pending = pendingTimers
    guard let first = pending.first else { return "" }
    return "; \(pending.count) real-time timer(s) pending, the next in \(first) "
      + "(a wait awaits only those due within \(realTimeHorizon))"
  }

  /// A job of a test bubble's executor (``ScopeExecutor``) was enqueued:
  /// the process-wide count counts it too, so a wait outside the bubble
  /// does not take the bubble's work for idle.
  package static func scopeJobEnqueued() {
    state.withLock { $0.runnable += 1 }
  }

  /// A job of a test bubble's executor has run.
  package static func scopeJobFinished() {
    let ready = state.withLock { state -> [UnsafeContinuation<Idle, Never>] in
      state.runnable -= 1
      guard state.runnable == 0, !state.waiters.isEmpty else { return [] }
      return state.releaseQuietWaiters()
    }
    for waiter in ready { waiter.resume(returning: .idle) }
  }

  #if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
    // MARK: Counting

    private static func enqueued(_ job: UnownedJob) {
      state.withLock { state in
        state.runnable += 1
        if state.sampling > 0 { state.tally[jobTaskID(job), default: 0] += 1 }
      }
    }

    private static func finished() {
      let ready = state.withLock { state -> [UnsafeContinuation<Idle, Never>] in
        state.runnable -= 1
        state.running -= 1
        guard state.runnable == 0, !state.waiters.isEmpty else { return [] }
        return state.releaseQuietWaiters()
      }
      for waiter in ready { waiter.resume(returning: .idle) }
    }

    /// Runs `job` on the global concurrent queue, counted.
    fileprivate static func runOnPool(_ job: UnownedJob) {
      enqueued(job)
      let handoff = Handoff(job: job)
      DispatchQueue.global().async {
        state.withLock { $0.running += 1 }
        actormvvm_quiescence_set_running_path(Path.poolMarker)
        runOnGenericExecutor(handoff.job, genericExecutor)
        actormvvm_quiescence_set_running_path(0)
        finished()
      }
    }

    /// Runs `job` on the main queue, isolated to the main actor, counted.
    fileprivate static func runOnMain(_ job: UnownedJob) {
      enqueued(job)
      state.withLock { $0.mainQueued += 1 }
      let handoff = Handoff(job: job)
      DispatchQueue.main.async {
        state.withLock {
          $0.mainQueued -= 1
          $0.running += 1
        }
        actormvvm_quiescence_set_running_path(Path.mainMarker)
        handoff.job.runSynchronously(on: CountingMainExecutor.shared.asUnownedSerialExecutor())
        actormvvm_quiescence_set_running_path(0)
        finished()
      }
    }

    /// Enqueues `job` once `delay` has passed on real time: at once (counted
    /// now) if it is due; otherwise a pending timer until then.
    fileprivate static func schedule(_ job: UnownedJob, after delay: Duration, onMain: Bool) {
      let nanoseconds = nanoseconds(delay)
      guard nanoseconds > 0 else { return onMain ? runOnMain(job) : runOnPool(job) }
      let deadline = uptime() &+ nanoseconds
      let id = state.withLock { state -> UInt64 in
        state.nextTimer &+= 1
        state.timers[state.nextTimer] = Timer(deadline: deadline)
        return state.nextTimer
      }
      let handoff = Handoff(job: job)
      DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline)) {
        // The timer ends and its job becomes runnable in one step: the count
        // never reads "no timer, nothing runnable" in between.
        state.withLock { state in
          state.timers[id] = nil
          state.runnable += 1
        }
        let queue = onMain ? DispatchQueue.main : DispatchQueue.global()
        if onMain { state.withLock { $0.mainQueued += 1 } }
        queue.async {
          state.withLock {
            if onMain { $0.mainQueued -= 1 }
            $0.running += 1
          }
          let marker = onMain ? Path.mainMarker : Path.poolMarker
          actormvvm_quiescence_set_running_path(marker)
          if onMain {
            handoff.job.runSynchronously(on: CountingMainExecutor.shared.asUnownedSerialExecutor())
          } else {
            runOnGenericExecutor(handoff.job, genericExecutor)
          }
          actormvvm_quiescence_set_running_path(0)
          finished()
        }
      }
    }

    /// Why `@unchecked Sendable` is safe: `UnownedJob` is an unowned
    /// reference to a job the runtime hands an executor to be run exactly
    /// once. The executor keeps no other reference: the job moves, whole, to
    /// the one Dispatch block that runs it (for a timer, through one
    /// `asyncAfter` block to that one), which is what the runtime's own
    /// Dispatch executors do with it. Nothing reads or writes the job
    /// concurrently, so there is nothing to race on.
    /// `QuiescenceStressTests.idleMeansNothingRuns` drives thousands of jobs
    /// (pool, main actor, yields, timers) through this hand-off under the
    /// thread sanitizer (`Scripts/stress.sh`), which would report a race here.
    private struct Handoff: @unchecked Sendable {
      let job: UnownedJob
    }

    /// The runtime's generic executor (`SerialExecutorRef::generic()`: no
    /// identity, no witness table), which the global executor runs jobs on.
    private static let genericExecutor = unsafeBitCast((0, 0), to: UnownedSerialExecutor.self)
  #endif

  private static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
    let total = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    return total >= Double(UInt64.max) ? .max : UInt64(max(total, 0))
  }

  private static func uptime() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  // MARK: Self-check

  /// A path a job can take to run, which the count must see.
  package enum Path: String, CaseIterable, Sendable {
    case globalPool = "a job on the global pool (Task {})"
    case defaultActor = "a default actor's job"
    case mainActor = "a main-actor job"
    case afterYield = "a task resumed after Task.yield()"
    case mainActorAfterYield = "a main-actor task resumed after Task.yield()"
    case afterZeroSleep = "a task resumed after a sleep due at once"
    case afterTimer = "a task resumed after a real-time sleep"

    fileprivate static let poolMarker: Int32 = 1
    fileprivate static let mainMarker: Int32 = 2
  }

  /// A probe: runs a job along one path and says whether it ran inside a
  /// counting executor (on the pool or the main actor, as the path needs).
  package typealias Probe = @Sendable () async -> Bool

  /// The probes for every ``Path``.
  package static let probes: [(Path, Probe)] = [
    (.globalPool, { await Task.detached { runningOnPool }.value }),
    (.defaultActor, { await ProbeActor().runningOnPool() }),
    (.mainActor, { await Task { @MainActor in runningOnMain }.value }),
    (
      .afterYield,
      {
        await Task.detached {
          await Task.yield()
          return runningOnPool
        }.value
      }
    ),
    (
      .mainActorAfterYield,
      {
        await Task { @MainActor in
          await Task.yield()
          return runningOnMain
        }.value
      }
    ),
    (
      .afterZeroSleep,
      {
        await Task.detached {
          try? await Task.sleep(for: .zero)
          return runningOnPool
        }.value
      }
    ),
    (
      .afterTimer,
      {
        await Task.detached {
          try? await Task.sleep(for: .milliseconds(1))
          return runningOnPool
        }.value
      }
    ),
  ]

  private static var runningOnPool: Bool { actormvvm_quiescence_running_path() == Path.poolMarker }
  private static var runningOnMain: Bool { actormvvm_quiescence_running_path() == Path.mainMarker }

  /// Whether the calling code runs in a job the counting pool executor
  /// started: for probes written by tests.
  package static var isRunningOnCountedPool: Bool { runningOnPool }

  private actor ProbeActor {
    func runningOnPool() -> Bool { Quiescence.runningOnPool }
  }

  /// Runs `probes` and returns the paths whose job did not come through a
  /// counting executor (in `probes`' order).
  package static func selfCheck(_ probes: [(Path, Probe)] = probes) async -> [Path] {
    var missing: [Path] = []
    for (path, probe) in probes where await !probe() { missing.append(path) }
    return missing
  }

  /// The self-check's verdict for this process: run by the first caller,
  /// awaited by the others, kept.
  private static func checkedPaths() async -> [Path] {
    enum Next { case run, wait, done([Path]) }
    let next = state.withLock { state -> Next in
      switch state.check {
      case .notRun:
        state.check = .running([])
        return .run
      case .running: return .wait
      case .done(let missing): return .done(missing)
      }
    }
    switch next {
    case .done(let missing): return missing
    case .wait:
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
        let done = state.withLock { state -> Bool in
          guard case .running(var waiting) = state.check else { return true }
          waiting.append(continuation)
          state.check = .running(waiting)
          return false
        }
        if done { continuation.resume() }
      }
      return await checkedPaths()
    case .run:
      // Detached: probes from a task in a test bubble would run on the
      // bubble's executor (its preference), not the paths being checked.
      let missing = await Task.detached { await selfCheck() }.value
      let waiting = state.withLock { state -> [UnsafeContinuation<Void, Never>] in
        defer { state.check = .done(missing: missing) }
        if case .running(let waiting) = state.check { return waiting }
        return []
      }
      for continuation in waiting { continuation.resume() }
      return missing
    }
  }

  /// For tests of the tools' reaction to a broken runtime: set on a task,
  /// every wait made by it and its children answers as if the self-check
  /// had found these paths not taken. Scoped to the task, so tests running
  /// beside it are untouched.
  @TaskLocal package static var simulatedMissingPaths: [Path]?

  /// For tests of the task-executor tier's self-check: these of its paths
  /// are reported missing instead of probed.
  @TaskLocal package static var simulatedMissingScopePaths: [BubblePath]?

  /// What every wait says when the self-check found paths not taken.
  package static func message(missing: [Path]) -> String {
    """
    Quiescence cannot know when this process is idle: on this toolchain (\(toolchain)) \
    \(missing.map(\.rawValue).joined(separator: ", ")) did not run through its counting executors, \
    so virtual time would declare idle while that work runs. The runtime's executor routing has \
    changed; Quiescence.swift says which paths it relies on.
    """
  }

  /// The toolchain this was compiled with, for the self-check's message.
  package static var toolchain: String {
    #if compiler(>=6.5)
      let version = "Swift 6.5 or later"
    #elseif compiler(>=6.4)
      let version = "Swift 6.4"
    #elseif compiler(>=6.3)
      let version = "Swift 6.3"
    #else
      let version = "Swift before 6.3"
    #endif
    #if os(Linux)
      return version + ", Linux"
    #elseif canImport(Darwin)
      return version + ", Darwin"
    #else
      return version
    #endif
  }
}

#if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
  // MARK: The counting executors

  /// The executors ``Quiescence/install()`` puts in place of the runtime's.
  private struct CountingExecutorFactory: ExecutorFactory {
    static var mainExecutor: any MainExecutor { CountingMainExecutor.shared }
    static var defaultExecutor: any TaskExecutor { CountingPoolExecutor.shared }
  }

  /// A counting executor's timers: a sleep on a clock measured in
  /// `Swift.Duration` becomes a `Quiescence` timer (pending until due, then a
  /// counted job); any other clock's goes to the runtime's executor.
  private protocol CountingScheduler: SchedulingExecutor {
    /// Whether the executor's jobs run on the main actor.
    var runsOnMain: Bool { get }
    /// The runtime's executor, for clocks whose durations are not `Swift.Duration`.
    var runtimeScheduling: any SchedulingExecutor { get }
  }

  extension CountingScheduler {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
      guard let delay = delay as? Duration else {
        return runtimeScheduling.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
      }
      Quiescence.schedule(UnownedJob(job), after: delay, onMain: runsOnMain)
    }

    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
      guard let delay = clock.now.duration(to: instant) as? Duration else {
        return runtimeScheduling.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
      }
      Quiescence.schedule(UnownedJob(job), after: delay, onMain: runsOnMain)
    }
  }

  /// The default executor: counts each job and runs it on the global
  /// concurrent queue, as the runtime's Dispatch executor does. No state of
  /// its own (all of it is `Quiescence`'s, behind its lock), so `Sendable`.
  private final class CountingPoolExecutor: TaskExecutor, CountingScheduler {
    static let shared = CountingPoolExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
      Quiescence.runOnPool(UnownedJob(job))
    }

    let runsOnMain = false

    /// The runtime's own default executor, for sleeps on clocks whose
    /// durations are not `Swift.Duration` (outside the count).
    var runtimeScheduling: any SchedulingExecutor {
      guard let executor = PlatformExecutorFactory.defaultExecutor as? any SchedulingExecutor else {
        fatalError("the runtime's default executor cannot schedule")
      }
      return executor
    }
  }

  /// The main executor: counts each job and runs it on the main queue,
  /// isolated to the main actor; runs the main queue as the runtime's does.
  /// No state of its own, so `Sendable`.
  private final class CountingMainExecutor: MainExecutor, CountingScheduler {
    static let shared = CountingMainExecutor()

    private var runtimeExecutor: any MainExecutor { PlatformExecutorFactory.mainExecutor }

    func run() throws { try runtimeExecutor.run() }
    func stop() { runtimeExecutor.stop() }
    var isMainExecutor: Bool { true }
    func checkIsolated() { runtimeExecutor.checkIsolated() }

    func enqueue(_ job: consuming ExecutorJob) {
      Quiescence.runOnMain(UnownedJob(job))
    }

    let runsOnMain = true

    /// The runtime's main executor, for sleeps on clocks whose durations are
    /// not `Swift.Duration` (outside the count).
    var runtimeScheduling: any SchedulingExecutor {
      guard let executor = runtimeExecutor as? any SchedulingExecutor else {
        fatalError("the runtime's main executor cannot schedule")
      }
      return executor
    }
  }

#endif

/// Called by ActorMVVMTesting's C constructor when a test process loads,
/// before any task exists.
@_cdecl("actormvvm_quiescence_install_at_load")
func quiescenceInstallAtLoad() {
  Quiescence.installAtLoad()
}

#if os(Linux) && !ACTORMVVM_APPLE_BELOW_26
  /// The id of the task a job belongs to (the job's own id if it is not a task).
  @_silgen_name("swift_task_getJobTaskId")
  private func jobTaskID(_ job: UnownedJob) -> UInt64

  /// Runs a job as the runtime's global executor does.
  @_silgen_name("swift_job_run")
  private func runOnGenericExecutor(_ job: UnownedJob, _ executor: UnownedSerialExecutor)
#endif
