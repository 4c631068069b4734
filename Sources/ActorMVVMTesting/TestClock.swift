import ActorMVVM

/// A clock whose time moves only when a test says so.
///
/// Code under test sleeps on it like on any `Clock<Duration>`; the test
/// calls ``advance(by:)`` to move time forward. Deterministic by
/// construction: no real time passes and nothing is hoped to "settle".
///
/// - ``advance(by:)`` steps through the deadlines it passes, earliest
///   first: it sets `now` to a deadline, resumes the sleepers due then, and
///   waits until each has *observed* its wake-up (is returning from
///   `sleep`, with `now` at its deadline) before moving on. So sleepers
///   return in deadline order, each at its own instant; what a sleeper does
///   after `sleep` returns runs concurrently with the rest of the advance
///   (and may read a later `now`). `now` ends at the target.
/// - ``advance(by:expectingSleepers:)`` first waits until that many sleepers
///   are due by the target: the `advance` that cannot race the sleep it is
///   meant to end.
/// - Gates (``waitForSleepers(_:)``, ``waitForSleeper(until:)``,
///   ``wait(until:)``) are re-checked whenever a sleeper arrives or leaves
///   and whenever time moves; their predicates run outside the clock's lock,
///   so a predicate may read ``now`` or anything else.
/// - A cancelled sleeper is removed and throws `CancellationError` at once.
///
/// `Sendable`; every member may be called from any task. Only one task
/// should advance a clock at a time.
public final class TestClock: Clock, Sendable {
  /// A point on the test clock's timeline: the time advanced since creation.
  public typealias Instant = ManualInstant

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
    let probe: Quiescence?
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<UInt64> = []
    /// Bumped whenever the sleepers or `now` change; gates wait for a bump.
    var version: UInt64 = 0
    var gates: [CheckedContinuation<Void, Never>] = []
    /// Sleepers resumed by the current `advance` step that have not yet
    /// returned from `sleep`, and the step waiting for them.
    var unobserved: Set<UInt64> = []
    var stepWaiter: CheckedContinuation<Void, Never>?
    /// Each wake-up as its sleeper observed it: its deadline and `now` then.
    var wakes: [(deadline: Instant, observedAt: Instant)] = []

    /// Records a change; hands back the gates to re-check.
    mutating func changed() -> [CheckedContinuation<Void, Never>] {
      version &+= 1
      defer { gates = [] }
      return gates
    }
  }

  private let state = Locked(State())

  /// A clock at its start (offset zero) with no sleepers.
  public init() {}

  /// The current virtual time: moves only when a test advances it.
  public var now: Instant { state.withLock { $0.now } }
  /// Zero: virtual time has no granularity.
  public var minimumResolution: Duration { .zero }

  /// Every wake-up by ``advance(by:)`` so far, in the order the sleepers
  /// observed them (returned from `sleep`): the deadline and `now` at that
  /// moment. For tests of the clock itself.
  package var wakes: [(deadline: Instant, observedAt: Instant)] { state.withLock { $0.wakes } }

  /// Tasks asleep on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// The deadlines of the tasks asleep on this clock, earliest first.
  public var sleeperDeadlines: [Instant] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }

  /// Suspends until a test advances the clock to `deadline` (at once if it has passed); throws `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let probe = Quiescence.current
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        enum Action { case resume, cancel, park([CheckedContinuation<Void, Never>]) }
        let action = state.withLock { state -> Action in
          if state.cancelledBeforeSleeping.remove(id) != nil { return .cancel }
          if deadline <= state.now { return .resume }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation, probe: probe))
          return .park(state.changed())
        }
        switch action {
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .park(let gates):
          probe?.idle()
          for gate in gates { gate.resume() }
        }
      }
    } onCancel: {
      let (sleeper, gates) = state.withLock { state -> (Sleeper?, [CheckedContinuation<Void, Never>]) in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledBeforeSleeping.insert(id)
          return (nil, [])
        }
        return (state.sleepers.remove(at: index), state.changed())
      }
      if let sleeper {
        sleeper.probe?.busy()
        sleeper.continuation.resume(throwing: CancellationError())
      }
      for gate in gates { gate.resume() }
    }
    // Woken: tell a waiting `advance` step, and forget a late cancellation.
    let step = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.cancelledBeforeSleeping.remove(id)
      guard state.unobserved.remove(id) != nil else { return nil }
      state.wakes.append((deadline, state.now))
      guard state.unobserved.isEmpty else { return nil }
      defer { state.stepWaiter = nil }
      return state.stepWaiter
    }
    step?.resume()
  }

  /// Moves time forward by `duration`, waking the sleepers due on the way
  /// in deadline order (see ``TestClock``). Returns once every sleeper it
  /// woke has observed its wake-up.
  public func advance(by duration: Duration = .zero) async {
    precondition(duration >= .zero, "TestClock cannot go back in time (advance by \(duration))")
    let target = now.advanced(by: duration)
    while true {
      let (due, gates) = state.withLock { state -> ([Sleeper], [CheckedContinuation<Void, Never>]) in
        guard let next = state.sleepers.lazy.map(\.deadline).min(), next <= target else {
          state.now = max(state.now, target)
          return ([], state.changed())
        }
        state.now = max(state.now, next)
        let now = state.now
        let due = state.sleepers.filter { $0.deadline <= now }
        state.sleepers.removeAll { $0.deadline <= now }
        state.unobserved = Set(due.map(\.id))
        return (due, state.changed())
      }
      for gate in gates { gate.resume() }
      guard !due.isEmpty else { return }
      await withCheckedContinuation { (step: CheckedContinuation<Void, Never>) in
        state.withLock { $0.stepWaiter = step }
        for sleeper in due {
          sleeper.probe?.busy()
          sleeper.continuation.resume()
        }
      }
    }
  }

  /// Moves time to `instant` (no-op if it is in the past), as ``advance(by:)``.
  public func advance(to instant: Instant) async {
    await advance(by: max(now.duration(to: instant), .zero))
  }

  /// Waits until at least `count` tasks are asleep with deadlines at or
  /// before `now + duration`, then advances by `duration`: an advance that
  /// cannot run ahead of the sleeps it is meant to end.
  public func advance(by duration: Duration, expectingSleepers count: Int) async {
    let target = now.advanced(by: duration)
    await wait { deadlines in deadlines.filter { $0 <= target }.count >= count }
    await advance(by: duration)
  }

  /// Returns once at least `count` tasks are asleep on this clock.
  public func waitForSleepers(_ count: Int = 1) async {
    await wait { $0.count >= count }
  }

  /// Returns once some task is asleep until exactly `deadline`: the gate for
  /// "the timer restarted", where the number of sleepers does not change.
  public func waitForSleeper(until deadline: Instant) async {
    await wait { $0.contains(deadline) }
  }

  /// Returns once `isOpen` holds for the deadlines of the current sleepers.
  /// Re-checked on every change to the sleepers or to `now`, outside the
  /// clock's lock.
  public func wait(until isOpen: @escaping @Sendable ([Instant]) -> Bool) async {
    while true {
      let (deadlines, version) = state.withLock { ($0.sleepers.map(\.deadline), $0.version) }
      if isOpen(deadlines) { return }
      await withCheckedContinuation { (gate: CheckedContinuation<Void, Never>) in
        let changed = state.withLock { state -> Bool in
          if state.version != version { return true }
          state.gates.append(gate)
          return false
        }
        if changed { gate.resume() }
      }
    }
  }
}
