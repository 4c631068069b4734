import ActorMVVM
import ActorMVVMSupport
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test bubble's job count: a counting `TaskExecutor` that the bubble's
/// tasks prefer, and barrier rounds on the main actor, so "nothing of this
/// test can run" is known for the bubble alone, on public API, the same way
/// on every platform.
///
/// **Jobs on the bubble's executor.** A bubble (ActorMVVMTesting's
/// `withTestBubble`) runs the test's body with this executor as its
/// task-executor preference and binds it in ``TaskScope`` for the library's
/// tasks, which start with it as their preference. The runtime then
/// enqueues here every job of those tasks that is not isolated to the main
/// actor — a task's first job, after a `Task.yield()`, after a sleep, after
/// a continuation is resumed from anywhere, the jobs of default actors they
/// call — and structured children (`async let`, task groups) inherit the
/// preference. A job is counted when it is enqueued and uncounted when it
/// has run; it runs on Dispatch's global queue, so threads and parallelism
/// stay real. Outside work (`withOutsideWork`) counts as a job from its
/// start to its end.
///
/// **The main actor.** Its jobs never reach a task executor, so the count
/// alone would call a bubble idle while one of its tasks waits in the main
/// actor's queue (a main-actor service an effect awaits, the default in an
/// Xcode 26 app target). The main actor is a serial FIFO queue, so a
/// barrier enqueued on it runs after every job enqueued before it. Once the
/// count reaches zero the executor sends a barrier; when the barrier runs,
/// the round was *quiet* if the count is still zero and no job or outside
/// work began since it was sent. Idle is ``mainActorRounds`` quiet rounds in
/// a row (each sent by the one before): every main-actor job queued before
/// the count reached zero has run, and so has every one those jobs queued
/// in turn, without giving the bubble work. A round that saw work starts
/// over. The waiting task stays parked throughout: the rounds run on the
/// main queue and in the executor's callbacks, so its own resumption never
/// looks like work.
///
/// **Not seen:** a `Task {}` or `Task.detached` the code under test starts
/// itself (an unstructured task does not inherit an executor preference)
/// once it leaves the main actor; main-actor work that re-enqueues itself
/// more than ``mainActorRounds`` − 1 times in a row without touching the
/// bubble; work on threads or queues of its own outside `withOutsideWork`.
/// Idle is declared while they run. Every path the count relies on is
/// probed once per process (``selfCheck(_:)``).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
package final class ScopeExecutor: TaskExecutor, TaskScopeLedger, Sendable {
  private struct State {
    /// The library's tasks started in the bubble and not yet returned, by entry.
    var tasks: [UInt64: String] = [:]
    var nextTask: UInt64 = 0
    /// Jobs enqueued, and outside work begun, not yet ended.
    var pending = 0
    /// Jobs enqueued since creation.
    var enqueued: UInt64 = 0
    /// Jobs enqueued and outside work begun since creation: a round is
    /// quiet only if this did not move while its barrier was on its way.
    var activity: UInt64 = 0
    var nextWaiter: UInt64 = 0
    var waiters: [UInt64: Waiter] = [:]
    /// The activity when the barrier on its way was sent, if one is.
    var roundMark: UInt64?
    /// Quiet rounds in a row so far.
    var quietRounds = 0
    /// Barriers sent and run since creation (a stall report says whether the main actor ran them).
    var barriersSent: UInt64 = 0
    var barriersRun: UInt64 = 0
    /// Enqueues by task while any waiter waits, to name what keeps the
    /// bubble busy if a wait stalls; cleared once none waits.
    var tally: [UInt64: Int] = [:]
    /// The names of the library's tasks by runtime task id, learnt as each runs.
    var names: [UInt64: String] = [:]

    /// Removes waiter `id`; the last waiter to go clears the tally.
    mutating func removeWaiter(_ id: UInt64) -> Waiter? {
      guard let waiter = waiters.removeValue(forKey: id) else { return nil }
      if waiters.isEmpty { tally = [:] }
      return waiter
    }

    /// Every waiter, removed.
    mutating func removeAllWaiters() -> [UnsafeContinuation<Quiescence.Idle, Never>] {
      waiters.keys.compactMap { removeWaiter($0)?.continuation }
    }

    /// Sends a round's barrier if the count is zero, a waiter waits and none is on its way.
    mutating func shouldSendBarrier() -> Bool {
      guard pending == 0, !waiters.isEmpty, roundMark == nil else { return false }
      roundMark = activity
      barriersSent &+= 1
      return true
    }
  }

  private struct Waiter {
    let continuation: UnsafeContinuation<Quiescence.Idle, Never>
  }

  private let state = Locked(State())

  /// Quiet main-actor rounds in a row that make idle: two, so main-actor
  /// work queued by main-actor work queued before the count reached zero
  /// is waited for too. Zero switches the main actor off (for the tests
  /// that show what it is for).
  package let mainActorRounds: Int

  /// A bubble's executor with nothing enqueued.
  package init(mainActorRounds: Int = 2) {
    self.mainActorRounds = mainActorRounds
  }

  /// Jobs enqueued here since creation (for tests of the paths).
  package var jobsEnqueued: UInt64 { state.withLock { $0.enqueued } }

  /// Jobs enqueued, and outside work begun, not yet ended.
  package var pendingJobs: Int { state.withLock { $0.pending } }

  /// Main-actor barriers run since creation (for tests of the rounds).
  package var barriersRun: UInt64 { state.withLock { $0.barriersRun } }

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

  /// Learns the runtime id of the task of `entry` from the job running it
  /// (the first job to run a library task's body runs here), for stall reports.
  package func taskRunning(_ entry: UInt64) {
    guard let id = Self.runningJob, id != 0 else { return }
    state.withLock { state in
      // A task started immediately runs its first slice inside its
      // starter's job: that job's task keeps the name it has.
      guard state.names[id] == nil, let name = state.tasks[entry] else { return }
      state.names[id] = name
    }
  }

  /// The library's tasks started in the bubble that have not returned, by
  /// name, oldest first.
  package var unfinishedTasks: [String] {
    state.withLock { state in state.tasks.keys.sorted().compactMap { state.tasks[$0] } }
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let id = Self.taskID(described: job.description)
    state.withLock { state in
      state.pending += 1
      state.enqueued &+= 1
      state.activity &+= 1
      if !state.waiters.isEmpty { state.tally[id, default: 0] += 1 }
    }
    let job = UnownedJob(job)
    DispatchQueue.global().async { [self] in
      let previous = Self.runningJob
      Self.runningJob = id
      job.runSynchronously(on: asUnownedTaskExecutor())
      Self.runningJob = previous
      pendingEnded()
    }
  }

  /// Outside work counts as a job from its start to its end.
  package func outsideWorkBegan() {
    state.withLock { state in
      state.pending += 1
      state.activity &+= 1
    }
  }

  package func outsideWorkEnded() { pendingEnded() }

  package func waitUntilIdle() async { _ = await untilIdle() }

  /// A job, or a unit of outside work, ended: once none is left, a round
  /// begins (or, with no main-actor rounds, the waiters go).
  private func pendingEnded() {
    enum Next { case nothing, barrier, release([UnsafeContinuation<Quiescence.Idle, Never>]) }
    let next = state.withLock { state -> Next in
      state.pending -= 1
      if mainActorRounds == 0 {
        return state.pending == 0 && !state.waiters.isEmpty ? .release(state.removeAllWaiters()) : .nothing
      }
      return state.shouldSendBarrier() ? .barrier : .nothing
    }
    switch next {
    case .nothing: break
    case .barrier: sendBarrier()
    case .release(let waiters): for waiter in waiters { waiter.resume(returning: .idle) }
    }
  }

  /// Enqueues a round's barrier on the main queue, the main actor's.
  private func sendBarrier() {
    DispatchQueue.main.async { [self] in barrierRan() }
  }

  /// A barrier ran on the main actor: every main-actor job enqueued before
  /// it was sent has run. Quiet if nothing of the bubble began meanwhile.
  private func barrierRan() {
    enum Next { case nothing, barrier, release([UnsafeContinuation<Quiescence.Idle, Never>]) }
    let next = state.withLock { state -> Next in
      state.barriersRun &+= 1
      let mark = state.roundMark
      state.roundMark = nil
      guard !state.waiters.isEmpty else {
        state.quietRounds = 0
        return .nothing
      }
      if state.pending == 0, state.activity == mark {
        state.quietRounds += 1
      } else {
        state.quietRounds = 0
      }
      if state.quietRounds >= mainActorRounds {
        state.quietRounds = 0
        return .release(state.removeAllWaiters())
      }
      // Busy now: the job's end sends the next round.
      return state.shouldSendBarrier() ? .barrier : .nothing
    }
    switch next {
    case .nothing: break
    case .barrier: sendBarrier()
    case .release(let waiters): for waiter in waiters { waiter.resume(returning: .idle) }
    }
  }

  /// Suspends until nothing of this bubble can run: no job of it queued or
  /// running here, and ``mainActorRounds`` quiet main-actor rounds in a row
  /// — the caller's own job having ended, if it is one of them.
  /// ``Quiescence/Idle/cancelled`` at once if the calling task is
  /// cancelled; ``Quiescence/Idle/busy(_:)``, naming the tasks enqueued
  /// most, if the bubble never stopped for ``Quiescence/stallBound``.
  package func untilIdle() async -> Quiescence.Idle {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiter &+= 1
      return state.nextWaiter
    }
    let bound = Quiescence.stallBound
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<Quiescence.Idle, Never>) in
        enum Now { case verdict(Quiescence.Idle), barrier, wait }
        let now = state.withLock { state -> Now in
          if Task.isCancelled { return .verdict(.cancelled) }
          if mainActorRounds == 0, state.pending == 0 { return .verdict(.idle) }
          state.waiters[id] = Waiter(continuation: continuation)
          return state.shouldSendBarrier() ? .barrier : .wait
        }
        switch now {
        case .verdict(let verdict): return continuation.resume(returning: verdict)
        case .barrier: sendBarrier()
        case .wait: break
        }
        after(bound) { [self] in
          let (waiter, report) = state.withLock { state in
            let report = Self.stallReport(state, bound)  // before the last waiter's removal clears the tally
            return (state.removeWaiter(id), report)
          }
          waiter?.continuation.resume(returning: .busy(report))
        }
      }
    } onCancel: {
      state.withLock { $0.removeWaiter(id) }?.continuation.resume(returning: .cancelled)
    }
  }

  /// What a stalled wait says: the tasks enqueued most meanwhile, named
  /// where they are the library's, and whether the main actor ran the rounds.
  private static func stallReport(_ state: State, _ bound: Duration) -> String {
    let top = state.tally.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map { id, count in
      let who =
        id == 0
        ? "jobs naming no task" : state.names[id].map { "\($0) (task \(id))" } ?? "task \(id), not the library's"
      return "\(who) ×\(count)"
    }
    let busy =
      top.isEmpty
      ? "nothing of it was enqueued meanwhile" : "enqueued most meanwhile: " + top.joined(separator: ", ")
    let main =
      state.pending == 0 && state.barriersSent > state.barriersRun
      ? "; the main actor did not run the bubble's barrier (is the main thread blocked?)" : ""
    return "the test bubble's tasks never stopped for \(bound) (\(state.pending) job(s) runnable; \(busy))\(main)"
  }

  /// Calls `body` on a Dispatch thread once `delay` of real time has passed.
  private func after(_ delay: Duration, _ body: @escaping @Sendable () -> Void) {
    let (seconds, attoseconds) = delay.components
    let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0)), execute: body)
  }

  // MARK: Which task a job is

  /// The runtime's id of a job's task, from the job's public description
  /// ("ExecutorJob(id: 42)"): its last run of ASCII digits, 0 if it has
  /// none. It runs for every job a bubble enqueues, so it reads the UTF-8
  /// bytes once, front to back, and builds no string: walking the
  /// description's characters cost about a tenth of the thread-sanitized
  /// share stress test's CPU time.
  package static func taskID(described description: String) -> UInt64 {
    var description = description
    return description.withUTF8 { bytes in
      var id: UInt64 = 0
      var inDigits = false
      for byte in bytes {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
          inDigits = false
          continue
        }
        if !inDigits { (id, inDigits) = (0, true) }
        id = id &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
      }
      return id
    }
  }

  /// The runtime's id of the task whose job this thread is running for a
  /// bubble, if it is; nil on a thread running none (the main actor's, a
  /// Dispatch callback). Task ids are never reused in a process.
  package static var currentTaskID: UInt64? {
    guard let id = runningJob, id != 0 else { return nil }
    return id
  }

  /// The task id of the job this thread runs for a bubble, as a
  /// thread-specific value (0: none).
  private static var runningJob: UInt64? {
    get { UInt64(UInt(bitPattern: pthread_getspecific(runningJobKey))) }
    set { pthread_setspecific(runningJobKey, UnsafeRawPointer(bitPattern: UInt(newValue ?? 0))) }
  }

  private static let runningJobKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  // MARK: Self-check

  /// A probe: runs its path with `executor` preferred, returns once done;
  /// false if the path's own check failed.
  package typealias Probe = @Sendable (_ executor: ScopeExecutor) async -> Bool

  /// One probe per path, each run on a fresh executor and checked by the
  /// jobs it brought there (a task's start is one; the path must bring the
  /// rest) and by its own result.
  package static let probes: [(BubblePath, minimumJobs: UInt64, Probe)] = [
    (
      .libraryTask, 1,
      { executor in
        _ = await TaskScope.task(preferring: executor, named: "probe", immediate: false) {}?.value
        return true
      }
    ),
    (
      .afterYield, 2,
      { executor in
        await Task(executorPreference: executor) { await Task.yield() }.value
        return true
      }
    ),
    (
      .defaultActor, 2,
      { executor in
        await Task(executorPreference: executor) { await ProbeActor().yieldInside() }.value
        return true
      }
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
        return true
      }
    ),
    (
      .mainActorHop, 2,
      { executor in
        // The task hops to the main actor and back; the wait must not
        // return before it is back and done.
        let done = Locked(false)
        let task = Task(executorPreference: executor) {
          await MainActorProbe.visit()
          done.withLock { $0 = true }
        }
        _ = await executor.untilIdle()
        let seen = done.withLock { $0 }
        await task.value
        return seen
      }
    ),
    (
      .mainActorFIFO, 0,
      { _ in
        // A main-actor task's first job, then a barrier, both enqueued from
        // here: the barrier must run second (the rounds rest on it).
        let ran = Locked(false)
        let task = Task { @MainActor in ran.withLock { $0 = true } }
        let first = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
          DispatchQueue.main.async { continuation.resume(returning: ran.withLock { $0 }) }
        }
        await task.value
        return first
      }
    ),
  ]

  /// Runs `probes`, each on a fresh executor, and returns the paths whose
  /// probe brought too few jobs or failed its own check.
  package static func selfCheck(
    _ probes: [(BubblePath, minimumJobs: UInt64, Probe)] = probes
  ) async -> [BubblePath] {
    var missing: [BubblePath] = []
    for (path, minimum, probe) in probes {
      let executor = ScopeExecutor()
      let passed = await probe(executor)
      _ = await executor.untilIdle()
      if !passed || executor.jobsEnqueued < minimum { missing.append(path) }
    }
    return missing
  }

  /// The check, run once per process, the first time a wait is decided.
  private static let check = Task.detached { await selfCheck() }

  /// Why no bubble can decide in this process, if the check found a path it misses.
  package static func checkedVerdict() async -> String? {
    let missing = await check.value
    guard !missing.isEmpty else { return nil }
    return message(missing: missing)
  }

  /// What a wait says when paths are missing.
  package static func message(missing: [BubblePath]) -> String {
    "the test bubble's job count cannot know when its work is idle: on this toolchain (\(Quiescence.toolchain)) "
      + missing.map(\.rawValue).joined(separator: ", ")
      + ", so virtual time would move while that work runs"
  }
}

/// The paths the bubble's count relies on, each probed once per process.
package enum BubblePath: String, CaseIterable, Sendable {
  case libraryTask = "a library task's first job did not reach the bubble's executor"
  case afterYield = "a bubble task resumed after Task.yield() did not reach the bubble's executor"
  case defaultActor = "a default actor's job for a bubble task did not reach the bubble's executor"
  case afterOutsideResume =
    "a bubble task resumed by a continuation from a Dispatch queue did not reach the bubble's executor"
  case mainActorHop = "a bubble task's hop to the main actor and back was not waited for"
  case mainActorFIFO = "a main-actor job enqueued before a main-queue barrier ran after it"
}

/// The default actor the self-check runs a bubble task on.
private actor ProbeActor {
  /// Suspends on the actor: the task comes back as the actor's job.
  func yieldInside() async { await Task.yield() }
}

/// The main actor's probe: a visit that does a little work there.
@MainActor
private enum MainActorProbe {
  static var visits = 0
  static func visit() { visits += 1 }
}
