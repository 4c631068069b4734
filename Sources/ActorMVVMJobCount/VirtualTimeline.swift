import ActorMVVM
import ActorMVVMSupport

/// The one engine of ActorMVVM's virtual clocks — `TestClock`
/// (ActorMVVMTesting) and the REPL's `VirtualClock` — so each rule of
/// virtual time lives in one place:
///
/// - A sleep whose deadline has come returns at once (or, with
///   `dueNowSleepsWait`, parks until the next advance, as RxTest's
///   `TestScheduler` runs an action scheduled for now); one whose task is
///   cancelled throws `CancellationError` at once, whether it is cancelled
///   before or after it parks, and stops counting as a sleeper.
/// - ``advance(through:including:settle:afterEachInstant:)`` moves time
///   instant by instant. At one instant the sleepers wake **one at a time**,
///   in the order they began sleeping, operators' deadline timers
///   (``DeadlineTimer``) after every other sleeper; after each wake-up it
///   waits for the sleeper to return from `sleep`, then for `settle` (the
///   job count) before the next. So two
///   things due at one instant happen in one order on every run.
///
/// `Sendable`: every member may be called from any task; one task at a time
/// should advance. `onChange` runs (outside the lock) after the sleepers or
/// `now` change, for a clock's gates.
package final class VirtualTimeline: Sendable {
  private struct Sleeper {
    let id: UInt64
    let deadline: ManualInstant
    /// An operator's deadline timer: wakes after the other sleepers of its instant.
    let isTimer: Bool
    /// What ``init(dueNowSleepsWait:tagSleeper:onChange:)``'s `tagSleeper`
    /// said of the sleeping task when it began.
    let tag: String?
    let continuation: UnsafeContinuation<Void, any Error>

    /// The wake-up order at one instant: sleepers before timers, each in the order they began sleeping.
    func wakesBefore(_ other: Sleeper) -> Bool { (isTimer ? 1 : 0, id) < (other.isTimer ? 1 : 0, other.id) }
  }

  private struct State {
    var now = ManualInstant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var cancelledBeforeSleeping: Set<UInt64> = []
    /// Sleepers an advance has resumed that have not yet returned.
    var woken: Set<UInt64> = []
    /// Each wake-up as its sleeper observed it: its deadline and `now` then.
    var wakes: [(deadline: ManualInstant, observedAt: ManualInstant)] = []
    /// An advance waiting for a woken sleeper to return from `sleep`.
    var returnGates: [UInt64: UnsafeContinuation<Void, Never>] = [:]
  }

  private let state = Locked(State())
  private let onChange: @Sendable () -> Void
  /// Whether a sleep whose deadline has come parks until the next advance.
  private let dueNowSleepsWait: Bool
  /// Called in each sleeping task as it begins to sleep: what it returns
  /// is kept with the sleeper (``sleeperTags``).
  private let tagSleeper: (@Sendable () -> String?)?

  /// A timeline at offset zero with no sleepers.
  package init(
    dueNowSleepsWait: Bool = false, tagSleeper: (@Sendable () -> String?)? = nil,
    onChange: @escaping @Sendable () -> Void = {}
  ) {
    self.dueNowSleepsWait = dueNowSleepsWait
    self.tagSleeper = tagSleeper
    self.onChange = onChange
  }

  /// Each sleeper's deadline and tag, in deadline order (then tag order).
  package var sleeperTags: [(deadline: ManualInstant, tag: String?)] {
    state.withLock { $0.sleepers.map { ($0.deadline, $0.tag) } }.sorted {
      ($0.deadline, $0.tag ?? "") < ($1.deadline, $1.tag ?? "")
    }
  }

  /// The current virtual time.
  package var now: ManualInstant { state.withLock { $0.now } }
  /// Tasks asleep right now.
  package var sleeperCount: Int { state.withLock { $0.sleepers.count } }
  /// The deadlines of the tasks asleep, earliest first.
  package var sleeperDeadlines: [ManualInstant] { state.withLock { $0.sleepers.map(\.deadline).sorted() } }
  /// The earliest deadline of the tasks asleep, if any.
  package var nextDeadline: ManualInstant? { state.withLock { $0.sleepers.lazy.map(\.deadline).min() } }
  /// Every wake-up by an advance so far, in the order the sleepers observed them.
  package var wakes: [(deadline: ManualInstant, observedAt: ManualInstant)] { state.withLock { $0.wakes } }

  /// Suspends until an advance reaches `deadline` (at once if it has
  /// passed, unless `dueNowSleepsWait`); throws `CancellationError` if the task is cancelled first.
  package func sleep(until deadline: ManualInstant) async throws {
    try Task.checkCancellation()
    let isTimer = DeadlineTimer.isActive
    let tag = tagSleeper?()
    let id = state.withLock { state -> UInt64 in
      state.nextID &+= 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        enum Action { case resume, cancel, park }
        let action = state.withLock { state -> Action in
          if state.cancelledBeforeSleeping.remove(id) != nil { return .cancel }
          if deadline <= state.now, !dueNowSleepsWait { return .resume }
          state.sleepers.append(
            Sleeper(id: id, deadline: deadline, isTimer: isTimer, tag: tag, continuation: continuation))
          return .park
        }
        switch action {
        case .resume: continuation.resume()
        case .cancel: continuation.resume(throwing: CancellationError())
        case .park: onChange()
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
      if let sleeper {
        sleeper.continuation.resume(throwing: CancellationError())
        onChange()
      }
    }
    let advance = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.cancelledBeforeSleeping.remove(id)
      // Only a sleep an advance ended is a wake-up (not one that returned at once).
      if state.woken.remove(id) != nil { state.wakes.append((deadline, state.now)) }
      return state.returnGates.removeValue(forKey: id)
    }
    advance?.resume()
  }

  /// Returns once woken sleeper `id` has returned from `sleep`: its task
  /// has run again, whatever executor it runs on (a job count that does not
  /// see the task would otherwise let the advance move on before it).
  private func returned(_ id: UInt64) async {
    await withUnsafeContinuation { (gate: UnsafeContinuation<Void, Never>) in
      let done = state.withLock { state -> Bool in
        guard state.woken.contains(id) else { return true }
        state.returnGates[id] = gate
        return false
      }
      if done { gate.resume() }
    }
  }

  /// Wakes, instant by instant, the sleepers due before `target` (and at
  /// it, with `including`), one at a time in the wake-up order, awaiting
  /// `settle` after each; `now` ends at `target`. `afterEachInstant` runs
  /// once an instant's sleepers have all woken and settled. Returns false
  /// as soon as `settle` does (cancelled, or idleness unknowable).
  @discardableResult
  package func advance(
    through target: ManualInstant, including: Bool, settle: () async -> Bool,
    afterEachInstant: (@Sendable () async -> Void)? = nil
  ) async -> Bool {
    var instant: ManualInstant?  // the instant whose sleepers are waking, if any
    while true {
      let earliest = state.withLock { state in
        state.sleepers.lazy.map(\.deadline).min().flatMap { $0 < target || (including && $0 == target) ? $0 : nil }
      }
      if let current = instant, earliest.map({ $0 > current }) ?? true {
        // The instant is over: every sleeper due then has woken and settled.
        instant = nil
        await afterEachInstant?()
        continue
      }
      let next = state.withLock { state -> Sleeper? in
        guard let earliest else {
          state.now = max(state.now, target)
          return nil
        }
        state.now = max(state.now, earliest)
        let now = state.now
        guard
          let index = state.sleepers.indices.filter({ state.sleepers[$0].deadline <= now })
            .min(by: { state.sleepers[$0].wakesBefore(state.sleepers[$1]) })
        else { return nil }
        let sleeper = state.sleepers.remove(at: index)
        state.woken.insert(sleeper.id)
        return sleeper
      }
      onChange()
      guard let next else {
        if earliest == nil { return true }
        continue  // the sleeper was cancelled meanwhile: look again
      }
      instant = now
      next.continuation.resume()
      await returned(next.id)
      guard await settle() else { return false }
    }
  }
}
