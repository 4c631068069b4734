import Dispatch
import Synchronization

/// A feature's start turnstile, where `Task.immediateDetached` does not
/// exist (Apple OSes below 26; builds with `ACTORMVVM_APPLE_BELOW_26`):
/// its effect runs make their first synchronous slices one at a time, in
/// the order they were started (Guarantees, row 5).
///
/// Each run is a detached task preferring a ``LaneStart``, its own task
/// executor, which holds this lane and an inner executor — never the
/// feature, so a run's task does not keep its feature alive (row 6). The
/// runtime enqueues a task's first job on the preferred executor
/// synchronously while the task is created, so first jobs reach the lane
/// in the order ``EffectRunner`` starts the runs: in input order. The lane
/// is a serial Dispatch queue (its own FIFO) on which each first job runs
/// to its end — the run's first suspension or its return — before the
/// next first job starts. Every later job of the run (its resumptions, its
/// structured children, the jobs of default actors it calls) goes straight
/// to the inner executor. `LaneStartTests` pins each path.
@usableFromInline
final class StartLane: Sendable {
  /// The turnstile: first jobs, in the order they were enqueued, one at a time.
  let queue = DispatchQueue(label: "ActorMVVM.StartLane")

  @usableFromInline init() {}

  /// A detached task running `operation` that takes its turn on this lane
  /// before its first slice, then runs on `inner` (the global concurrent
  /// executor if nil). The first slice counts as outside work
  /// (``OutsideWork``) where the starting task's work is counted, so a
  /// test's wait does not take a first job waiting its turn for idle.
  @usableFromInline
  func detached(
    on inner: (any TaskExecutor)?, priority: TaskPriority?, _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    let executor = LaneStart(lane: self, inner: inner ?? globalConcurrentExecutor, hold: OutsideWork.begin())
    return Task.detached(executorPreference: executor, priority: priority, operation: operation)
  }
}

/// One run's task executor: its first job takes its turn on a ``StartLane``;
/// every later one goes to `inner` at once.
final class LaneStart: TaskExecutor {
  let lane: StartLane
  let inner: any TaskExecutor
  /// The outside work that keeps a test's wait from concluding while the
  /// first job waits or runs: ended once the first slice has.
  let hold: OutsideWork.Hold?
  /// Set by the first enqueue: the task's first job, enqueued while the
  /// task is created (nothing else knows this executor until it runs).
  private let tookFirstJob = Atomic<Bool>(false)

  init(lane: StartLane, inner: any TaskExecutor, hold: OutsideWork.Hold?) {
    self.lane = lane
    self.inner = inner
    self.hold = hold
  }

  /// Whether the task's first job has arrived.
  var hasTakenFirstJob: Bool { tookFirstJob.load(ordering: .relaxed) }

  func enqueue(_ job: consuming ExecutorJob) {
    guard !tookFirstJob.exchange(true, ordering: .relaxed) else { return inner.enqueue(job) }
    let qos = DispatchQoS(qosClass: .init(job.priority), relativePriority: 0)
    let job = UnownedJob(job)
    lane.queue.async(qos: qos) { [self] in
      // Returns once the first slice has ended: the run suspended (its
      // resumption is already on `inner`) or returned.
      job.runSynchronously(on: asUnownedTaskExecutor())
      hold?.end()
    }
  }
}

extension DispatchQoS.QoSClass {
  /// The class a job of `priority` runs at, as the global executor maps it.
  init(_ priority: JobPriority) {
    switch priority.rawValue {
    case 33...: self = .userInteractive
    case 25..<33: self = .userInitiated
    case 21..<25: self = .default
    case 17..<21: self = .utility
    case 1..<17: self = .background
    default: self = .unspecified
    }
  }
}
