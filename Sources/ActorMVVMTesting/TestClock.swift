import ActorMVVM

/// A clock whose time moves only when a test says so.
///
/// Code under test sleeps on it like on any `Clock<Duration>`; the test
/// calls ``advance(by:)`` to move time forward. Deterministic by
/// construction: no real time passes and nothing is hoped to "settle".
///
/// - ``advance(by:)`` moves `now` to the target instant and resumes exactly
///   the sleepers whose deadline is at or before it, earliest deadline first
///   (ties in the order they began sleeping). A sleeper that registers
///   during or after the jump measures from the new `now`; to step a
///   periodic timer through several periods, advance one period at a time.
/// - ``waitForSleepers(_:)`` is the explicit gate a test uses before
///   advancing: it returns once at least that many tasks are asleep on the
///   clock, so an `advance` never races the sleep it means to end.
/// - A cancelled sleeper is removed and throws `CancellationError` at once.
///
/// `Sendable`; every member may be called from any task.
public final class TestClock: Clock, Sendable {
  /// A point on the test clock's timeline: the time advanced since creation.
  public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    public var offset: Duration

    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    public var description: String { "\(offset)" }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<UInt64> = []
    var gates: [(isOpen: @Sendable ([Instant]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
  }

  private let state = Locked(State())

  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }

  /// Tasks asleep on this clock right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
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
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return .park(Self.openGates(&state))
        }
        switch action {
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .park(let gates): for gate in gates { gate.resume() }
        }
      }
    } onCancel: {
      let sleeper = state.withLock { state -> Sleeper? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledBeforeSleeping.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
    // A sleeper resumed normally may have its id left in the set; clean it.
    _ = state.withLock { $0.cancelledBeforeSleeping.remove(id) }
  }

  /// Moves time forward by `duration` and wakes the sleepers now due.
  public func advance(by duration: Duration = .zero) {
    precondition(duration >= .zero, "TestClock cannot go back in time (advance by \(duration))")
    let due = state.withLock { state -> [Sleeper] in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.enumerated().sorted {
        ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset)
      }.map(\.element)
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Moves time to `instant` (no-op if it is in the past) and wakes the sleepers due.
  public func advance(to instant: Instant) {
    let delta = now.duration(to: instant)
    advance(by: max(delta, .zero))
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
  public func wait(until isOpen: @escaping @Sendable ([Instant]) -> Bool) async {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { state -> Bool in
        if isOpen(state.sleepers.map(\.deadline)) { return true }
        state.gates.append((isOpen, continuation))
        return false
      }
      if ready { continuation.resume() }
    }
  }

  private static func openGates(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
    guard !state.gates.isEmpty else { return [] }
    let deadlines = state.sleepers.map(\.deadline)
    var open: [CheckedContinuation<Void, Never>] = []
    state.gates.removeAll { gate in
      guard gate.isOpen(deadlines) else { return false }
      open.append(gate.continuation)
      return true
    }
    return open
  }
}
