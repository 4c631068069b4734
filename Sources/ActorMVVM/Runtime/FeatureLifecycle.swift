/// A feature's life as a pure state machine: running → finishing →
/// finished, and who waits for what. ``Feature`` feeds it events (a call to
/// `finish()` or `idle()`, the effects going quiet, the finish done) and
/// does what it answers; the machine itself never suspends, starts a task
/// or resumes anything, so each transition is tested synchronously
/// (`FeatureLifecycleTests`), with plain values for the waiters.
///
/// - **Isolation:** a value owned by the feature's actor; every event is
///   one synchronous mutation there.
/// - **Waiters** are whatever the host suspends with (a continuation in
///   ``Feature``): the machine holds them and hands them back, in the order
///   they came, when they may go.
@usableFromInline
struct FeatureLifecycle<Waiter> {
  /// Where the feature is in its life.
  @usableFromInline
  enum Phase: Equatable, Sendable {
    /// Taking inputs and running effects.
    case running
    /// `finish()` has begun: the inputs pending then have been reduced and
    /// later ones are dropped (the mailbox is closed); effects are being
    /// cancelled and awaited.
    case finishing
    /// Done: nothing runs again.
    case finished
  }

  /// What the host does for a `finish()` call.
  enum FinishStep: Equatable, Sendable {
    /// Finish now: close the mailbox, cancel and await the effects, then send ``finished()``.
    case begin
    /// Another call is finishing: suspend and hand the waiter to ``waitForFinish(_:)``.
    case wait
    /// Nothing to do: already finished, or a finish under way is waiting for this very caller.
    case returnNow
  }

  /// What the host does for an `idle()` call.
  @usableFromInline
  enum IdleStep: Equatable, Sendable {
    /// Effects are running: suspend and hand the waiter to ``waitForIdle(_:)``.
    case wait
    /// Nothing to wait for (no effect, not running, or called from inside an effect).
    case returnNow
  }

  // Set only by the events below (the type is internal; its tests read them).
  // The phase last, so a host can use the tail after it.
  @usableFromInline var idleWaiters: [Waiter] = []
  @usableFromInline var finishWaiters: [Waiter] = []
  @usableFromInline var phase = Phase.running

  @inlinable init() {}

  /// Whether the feature still takes inputs and runs effects.
  @inlinable var isRunning: Bool { phase == .running }

  /// A `finish()` call; `fromOwnTask` when made from one of the feature's
  /// own effects or bindings (which the finish awaits, so it must not wait).
  mutating func finish(fromOwnTask: Bool) -> FinishStep {
    switch phase {
    case .finished: return .returnNow
    case .finishing: return fromOwnTask ? .returnNow : .wait
    case .running:
      phase = .finishing
      return .begin
    }
  }

  /// Holds a caller of `finish()` told to ``FinishStep/wait``.
  mutating func waitForFinish(_ waiter: Waiter) {
    precondition(phase == .finishing, "only a finish under way is waited for")
    finishWaiters.append(waiter)
  }

  /// The finish begun by ``finish(fromOwnTask:)`` is done: every waiter,
  /// of `finish()` first then of `idle()`, is released.
  mutating func finished() -> [Waiter] {
    precondition(phase == .finishing, "finished() ends a finish that began")
    phase = .finished
    defer {
      finishWaiters = []
      idleWaiters = []
    }
    return finishWaiters + idleWaiters
  }

  /// An `idle()` call, once the pending inputs are reduced: `activeEffects`
  /// is how many effect tasks have not returned.
  @inlinable
  func idle(fromOwnTask: Bool, activeEffects: Int) -> IdleStep {
    phase == .running && !fromOwnTask && activeEffects > 0 ? .wait : .returnNow
  }

  /// Holds a caller of `idle()` told to ``IdleStep/wait``. A finish
  /// releases it too.
  @inlinable
  mutating func waitForIdle(_ waiter: Waiter) {
    idleWaiters.append(waiter)
  }

  /// Whether anyone waits for idle.
  @inlinable var hasIdleWaiters: Bool { !idleWaiters.isEmpty }

  /// After a drain: the idle waiters to release, if no effect is active
  /// (`activeEffects`), else none. On the input path, so inlinable and one
  /// branch when nobody waits.
  @inlinable
  mutating func drained(activeEffects: Int) -> [Waiter]? {
    guard !idleWaiters.isEmpty, activeEffects == 0 else { return nil }
    defer { idleWaiters = [] }
    return idleWaiters
  }
}
