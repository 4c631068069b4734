import ActorMVVM

/// The REPL's clock in a script: time moves only when the session moves it,
/// to the next deadline, once nothing else can happen (see ``ReplSession``).
/// So a script's transcript, latency and all, is the same on every run, and
/// takes no real time.
///
/// - A sleeper whose deadline has come returns; one whose task is cancelled
///   throws `CancellationError` at once and stops counting as a sleeper.
/// - `Sendable`; one task (the session) moves time.
public final class VirtualClock: Clock, Sendable {
  /// A point on the virtual timeline: the time since the clock started.
  public typealias Instant = ManualInstant

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    /// Sleeps cancelled before they were registered.
    var cancelled: Set<UInt64> = []
  }

  private let state = Locked(State())

  /// A clock at offset zero with no sleepers. Installs the process's job
  /// count, so the session knows when nothing can run without time moving
  /// (create the clock before the app).
  public init() {
    Quiescence.install()
  }

  /// The current virtual time.
  public var now: Instant { state.withLock { $0.now } }
  /// Zero: virtual time has no granularity.
  public var minimumResolution: Duration { .zero }
  /// Tasks asleep on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
  /// The earliest deadline of the tasks asleep, if any.
  public var nextDeadline: Instant? { state.withLock { $0.sleepers.lazy.map(\.deadline).min() } }

  /// Suspends until the clock is moved to `deadline` (returns at once if
  /// it has passed); throws `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let verdict = state.withLock { state -> (any Error)?? in
          if state.cancelled.remove(id) != nil { return .some(CancellationError()) }
          if deadline <= state.now { return .some(nil) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .none
        }
        switch verdict {
        case .none: break
        case .some(nil): continuation.resume()
        case .some(let error?): continuation.resume(throwing: error)
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelled.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    // A sleep that ended normally leaves no stale cancellation mark.
    state.withLock { _ = $0.cancelled.remove(id) }
  }

  /// Moves time to `instant` (never back) and wakes every sleeper due by then.
  public func advance(to instant: Instant) {
    let due = state.withLock { state -> [Sleeper] in
      state.now = max(state.now, instant)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}
