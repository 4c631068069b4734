import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport
import Dispatch
import Testing

/// A clock whose time moves only when a test says so.
///
/// Code under test sleeps on it like on any `Clock<Duration>`; the test
/// calls ``advance(by:fileID:filePath:line:column:)`` to move time forward. Deterministic by
/// construction: no real time passes, and "everything has settled" is
/// known, not hoped for.
///
/// - **Idle, exactly.** The clock asks the test's bubble (`.testBubble`,
///   ``withTestBubble(isolation:fileID:filePath:line:column:_:)``; see Guarantees,
///   "Virtual time is exact") when nothing of the test can run: the
///   library's tasks, the test's own body and its structured children,
///   and what they have queued on the main actor. ``advance(by:fileID:filePath:line:column:)`` first
///   lets everything runnable run until it parks, then steps through the
///   deadlines it passes, earliest first: it sets `now` to a deadline,
///   resumes the sleepers due then, and again waits until everything has
///   parked before the next step. So `input.yield(2)` then
///   `await clock.advance(by: …)` handles the element at the instant it was
///   yielded, however busy the machine is, and each timer's consequences
///   land at their own instant. Used outside a bubble, every wait records a
///   failure at the test's line saying what to add, and returns.
/// - **Same instant.** `advance` ends an instant: timers due at the target
///   have fired when it returns, so an input yielded after
///   `advance(to: t)` is handled after the timers due at `t` (RxTest's
///   `advanceTo(t)` then `onNext`). An input *scheduled* at `t` — a
///   ``Marble`` or ``FeatureTimeline`` input — is handled before the timers
///   due at `t` (RxTest's hot observables). Sleepers due at one instant
///   wake one at a time, in the order they began sleeping, each one's work
///   settled before the next; operators' deadline timers (timeout,
///   debounce, throttle, `Effect.throttle`) wake after every other sleeper
///   of their instant. So two things due at one instant happen in one
///   order on every run, and an element a sleeper produces at a timeout's
///   deadline is in time.
/// - **Not seen, and a second's grace.** A `Task {}` the test or the code
///   under test starts itself, once it leaves the main actor, and work on
///   threads of its own outside `withOutsideWork`: before a gate fails, it
///   gives the sleepers up to a second of real time to change.
/// - **Self-check.** If this toolchain routes a kind of job around the
///   bubble's count, every wait and `advance` records a failure naming it
///   and returns, instead of moving time on a guess.
/// - **Gates** (``waitForSleepers(_:fileID:filePath:line:column:)``, ``waitForSleeper(until:fileID:filePath:line:column:)``,
///   ``wait(until:describing:fileID:filePath:line:column:)``, ``advance(by:expectingSleepers:fileID:filePath:line:column:)``) return once
///   their condition holds. One that cannot hold — everything is idle and
///   the sleepers are not what it expects — records a test failure naming
///   what it expected and what is asleep, and returns `false` instead of
///   hanging. Every wait returns (`false`) when its task is cancelled, so a
///   `.timeLimit` ends a stuck test.
/// - A cancelled sleeper is removed and throws `CancellationError` at once.
/// - **Sleeps already due** (a zero delay, or a deadline that has passed)
///   return at once by default, as on `ContinuousClock`. A team migrating
///   RxTest or ReactiveSwift tests, whose `TestScheduler` runs work
///   scheduled for *now* only on the next `advance()`, chooses
///   ``DueNowSleeps/waitForAdvance`` (see ``init(dueNowSleeps:)``).
///
/// `Sendable`; every member may be called from any task. Only one task
/// should advance a clock at a time.
public final class TestClock: Clock, Sendable {
  /// A point on the test clock's timeline: the time advanced since creation.
  public typealias Instant = ManualInstant

  private struct State {
    /// Advances under way: while one is, time is about to move, so a gate
    /// that is not open yet waits for a change instead of failing.
    var advancing = 0
    /// Bumped whenever the sleepers, `now` or `advancing` change.
    var version: UInt64 = 0
    var nextGate: UInt64 = 0
    var gates: [UInt64: UnsafeContinuation<Void, Never>] = [:]

    /// Records a change; hands back the gates to re-check.
    mutating func changed() -> [UnsafeContinuation<Void, Never>] {
      version &+= 1
      defer { gates = [:] }
      return Array(gates.values)
    }
  }

  private let state: Locked<State>
  /// The sleepers and `now`: the engine the REPL's script clock shares.
  private let timeline: VirtualTimeline

  /// What a sleep does when its deadline has already come.
  public enum DueNowSleeps: Sendable {
    /// Returns at once, as on a real clock (the default): code that sleeps
    /// for zero runs on without the test advancing.
    case returnAtOnce
    /// Parks until the next ``advance(by:fileID:filePath:line:column:)``, even `advance(by: .zero)`,
    /// which wakes it at the current instant: RxTest's and ReactiveSwift's
    /// `TestScheduler`, where work scheduled for now waits for `advance()`.
    /// A test can then see "loading, nothing yet" before the answer of a
    /// request whose delay is zero.
    case waitForAdvance
  }

  /// A clock at its start (offset zero) with no sleepers. It may be
  /// created at any time, before or after the work it is to watch; its
  /// waits ask the bubble of the task that makes them.
  ///
  /// - Parameter dueNowSleeps: what a sleep whose deadline has come does.
  ///   `.returnAtOnce` (the default) keeps production's behaviour: a zero
  ///   debounce or a `sleep(for: .zero)` does not stop the code, and a test
  ///   that forgets to advance does not strand it. `.waitForAdvance` is
  ///   RxTest's `TestScheduler`, for tests ported with their zero delays.
  public convenience init(dueNowSleeps: DueNowSleeps = .returnAtOnce) {
    self.init(dueNowSleeps: dueNowSleeps, tagSleeper: nil)
  }

  /// A clock that keeps, with each sleeper, what `tagSleeper` says of the
  /// sleeping task as it begins to sleep (``sleeperTags``): the explorer's
  /// world tags each sleep with its run's progress.
  package init(dueNowSleeps: DueNowSleeps = .returnAtOnce, tagSleeper: (@Sendable () -> String?)?) {
    XCTestCases.observe()
    let state = Locked(State())
    self.state = state
    timeline = VirtualTimeline(
      dueNowSleepsWait: dueNowSleeps == .waitForAdvance, tagSleeper: tagSleeper,
      onChange: {
        for gate in state.withLock({ $0.changed() }) { gate.resume() }
      })
  }

  /// The current virtual time: moves only when a test advances it.
  public var now: Instant { timeline.now }
  /// Zero: virtual time has no granularity.
  public var minimumResolution: Duration { .zero }

  /// Every wake-up by ``advance(by:fileID:filePath:line:column:)`` so far, in the order the sleepers
  /// observed them (returned from `sleep`): the deadline and `now` at that
  /// moment. For tests of the clock itself.
  package var wakes: [(deadline: Instant, observedAt: Instant)] { timeline.wakes }

  /// Tasks asleep on this clock right now.
  public var sleeperCount: Int { timeline.sleeperCount }

  /// The deadlines of the tasks asleep on this clock, earliest first.
  public var sleeperDeadlines: [Instant] { timeline.sleeperDeadlines }

  /// The earliest deadline of the tasks asleep, if any.
  public var nextDeadline: Instant? { timeline.nextDeadline }

  /// Each sleeper's deadline and the tag it was given (see
  /// ``init(dueNowSleeps:tagSleeper:)``), in deadline order.
  package var sleeperTags: [(deadline: Instant, tag: String?)] { timeline.sleeperTags }

  /// Suspends until a test advances the clock to `deadline` (at once if it has passed, unless the clock
  /// was made with ``DueNowSleeps/waitForAdvance``); throws `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await timeline.sleep(until: deadline)
  }

  /// Lets everything runnable run until it parks, then moves time forward
  /// by `duration`, waking the sleepers due on the way in deadline order
  /// and letting each instant's work park before the next (see
  /// ``TestClock``). Returns with `now` at the target and nothing runnable,
  /// or at once if the calling task is cancelled. Outside a test bubble it
  /// records a failure at `sourceLocation` and does not move time.
  public func advance(
    by duration: Duration = .zero, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) async {
    await advance(by: duration, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func advance(by duration: Duration = .zero, sourceLocation: SourceLocation) async {
    precondition(duration >= .zero, "TestClock cannot go back in time (advance by \(duration))")
    let target = now.advanced(by: duration)
    changeAdvancing(by: 1)
    defer { changeAdvancing(by: -1) }
    guard await quiet(sourceLocation: sourceLocation) else { return }
    await fire(through: target, including: true, sourceLocation: sourceLocation)
  }

  /// Waits until nothing of the test's bubble can run: true when idle;
  /// false when the task was cancelled, or, recording a test failure at
  /// `sourceLocation` that says why, when idleness cannot be known (no
  /// bubble) or the bubble never stopped.
  func quiet(sourceLocation: SourceLocation) async -> Bool {
    report(await Quiescence.untilIdle(), sourceLocation: sourceLocation)
  }

  private func report(_ idle: Quiescence.Idle, sourceLocation: SourceLocation) -> Bool {
    switch idle {
    case .idle: return true
    case .cancelled: return false
    case .unknowable(let why):
      TestFailure.record("TestClock cannot move time: \(why)", sourceLocation: sourceLocation)
      return false
    case .busy(let why):
      TestFailure.record("TestClock waited for idle, but \(why)", sourceLocation: sourceLocation)
      return false
    }
  }

  /// Whether an advance is under way (time is about to move): a wait
  /// bounded in real time does not give up while it is.
  package var isAdvancing: Bool { state.withLock { $0.advancing > 0 } }

  private func changeAdvancing(by delta: Int) {
    let gates = state.withLock { state in
      state.advancing += delta
      return state.changed()
    }
    for gate in gates { gate.resume() }
  }

  /// Moves time to `instant` (no-op if it is in the past), as ``advance(by:fileID:filePath:line:column:)``.
  public func advance(
    to instant: Instant, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) async {
    await advance(to: instant, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func advance(to instant: Instant, sourceLocation: SourceLocation) async {
    await advance(by: max(now.duration(to: instant), .zero), sourceLocation: sourceLocation)
  }

  /// Wakes, instant by instant, the sleepers due before `target` (and at
  /// it, with `including`); `now` ends at `target`. The order at one
  /// instant is ``VirtualTimeline``'s: one sleeper at a time, in the order
  /// they began sleeping, operators' deadline timers last, each one's work
  /// parked before the next wakes. `afterEachStep` runs once an instant's
  /// sleepers have all woken and parked. False if the calling task was
  /// cancelled.
  @discardableResult
  func fire(
    through target: Instant, including: Bool, sourceLocation: SourceLocation,
    afterEachStep: (@Sendable () async -> Void)? = nil
  ) async -> Bool {
    await timeline.advance(
      through: target, including: including, settle: { await self.quiet(sourceLocation: sourceLocation) },
      afterEachInstant: afterEachStep)
  }

  /// Waits until at least `count` tasks are asleep with deadlines at or
  /// before `now + duration`, then advances by `duration`: an advance that
  /// cannot run ahead of the sleeps it is meant to end. If they never come
  /// (see ``wait(until:describing:fileID:filePath:line:column:)``), records a failure
  /// and does not advance.
  public func advance(
    by duration: Duration, expectingSleepers count: Int, fileID: String = #fileID, filePath: String = #filePath,
    line: Int = #line, column: Int = #column
  ) async {
    await advance(
      by: duration, expectingSleepers: count,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  package func advance(
    by duration: Duration, expectingSleepers count: Int, sourceLocation: SourceLocation
  ) async {
    let target = now.advanced(by: duration)
    guard
      await wait(
        until: { deadlines in deadlines.filter { $0 <= target }.count >= count },
        describing: "\(count) sleeper(s) due by \(target)", sourceLocation: sourceLocation)
    else { return }
    await advance(by: duration, sourceLocation: sourceLocation)
  }

  /// Returns true once at least `count` tasks are asleep on this clock;
  /// see ``wait(until:describing:fileID:filePath:line:column:)``.
  @discardableResult
  public func waitForSleepers(
    _ count: Int = 1, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> Bool {
    return await waitForSleepers(
      count, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  @discardableResult
  package func waitForSleepers(_ count: Int = 1, sourceLocation: SourceLocation) async -> Bool {
    await wait(until: { $0.count >= count }, describing: "\(count) sleeper(s)", sourceLocation: sourceLocation)
  }

  /// Returns true once some task is asleep until exactly `deadline`: the
  /// gate for "the timer restarted", where the number of sleepers does not
  /// change. See ``wait(until:describing:fileID:filePath:line:column:)``.
  @discardableResult
  public func waitForSleeper(
    until deadline: Instant, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
    column: Int = #column
  ) async -> Bool {
    return await waitForSleeper(
      until: deadline, sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  @discardableResult
  package func waitForSleeper(until deadline: Instant, sourceLocation: SourceLocation) async -> Bool {
    await wait(
      until: { $0.contains(deadline) }, describing: "a sleeper until \(deadline)", sourceLocation: sourceLocation)
  }

  /// Returns true once `isOpen` holds for the deadlines of the current
  /// sleepers. Re-checked whenever the sleepers or `now` change, and each
  /// time nothing can run. If it does not hold when nothing can run and no
  /// ``advance(by:fileID:filePath:line:column:)`` is under way, nothing can make it hold, so the wait
  /// records a test failure saying what it expected (`description`) and
  /// what is asleep, and returns false. Returns false, recording nothing,
  /// if the calling task is cancelled.
  @discardableResult
  public func wait(
    until isOpen: @escaping @Sendable ([Instant]) -> Bool,
    describing description: String = "a condition on the sleepers",
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> Bool {
    return await wait(
      until: isOpen, describing: description,
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  @discardableResult
  package func wait(
    until isOpen: @escaping @Sendable ([Instant]) -> Bool,
    describing description: String = "a condition on the sleepers",
    sourceLocation: SourceLocation
  ) async -> Bool {
    var lookAhead = Quiescence.realTimeHorizon
    while true {
      // The version first: a change after it is read bumps it, so the
      // deadlines read next can never be older than the version says.
      let (version, advancing) = state.withLock { ($0.version, $0.advancing > 0) }
      let deadlines = timeline.sleeperDeadlines
      if isOpen(deadlines) { return true }
      if Task.isCancelled { return false }
      if advancing {
        await change(after: version)
        continue
      }
      guard await quiet(sourceLocation: sourceLocation) else { return false }
      let stillAdvancing = state.withLock { $0.advancing > 0 }
      let after = timeline.sleeperDeadlines
      if isOpen(after) { return true }
      if stillAdvancing { continue }
      // The bubble does not see a `Task {}` started by the test or the
      // code under test once it leaves the main actor: before concluding,
      // give the sleepers up to the rest of the horizon to change. (Only a
      // failing wait pays this.)
      if lookAhead > .zero {
        let started = ContinuousClock.now
        await change(after: version, within: lookAhead)
        lookAhead -= ContinuousClock.now - started
        continue
      }
      TestFailure.record(
        """
        TestClock at \(now) waited for \(description), but nothing can run and it never came; \
        asleep: \(after.isEmpty ? "nothing" : after.map(\.description).joined(separator: ", "))\(Self.unseenNote)
        """,
        sourceLocation: sourceLocation)
      return false
    }
  }

  /// What a failing wait adds: what the bubble does not see.
  static let unseenNote =
    " (the test bubble sees the library's tasks, the test's own and what they queue on the main actor, not a "
    + "`Task {}` started by the test or the code under test once it leaves the main actor, and nothing changed "
    + "within \(Quiescence.realTimeHorizon) of real time: start such a task with `TestBubble.task { }`)"

  /// Returns once the clock's state has changed since `version`, `bound`
  /// of real time has passed (if one is given), or the calling task is
  /// cancelled.
  private func change(after version: UInt64, within bound: Duration? = nil) async {
    let id = state.withLock { state -> UInt64 in
      state.nextGate &+= 1
      return state.nextGate
    }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (gate: UnsafeContinuation<Void, Never>) in
        let changed = state.withLock { state -> Bool in
          if state.version != version || Task.isCancelled { return true }
          state.gates[id] = gate
          return false
        }
        if changed { return gate.resume() }
        guard let bound else { return }
        let (seconds, attoseconds) = bound.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) { [state] in
          state.withLock { $0.gates.removeValue(forKey: id) }?.resume()
        }
      }
    } onCancel: {
      state.withLock { $0.gates.removeValue(forKey: id) }?.resume()
    }
  }

  /// Returns once nothing of the test's bubble can run without time moving
  /// (see ``TestClock``); false if the calling task was cancelled first,
  /// or, recording a failure at `sourceLocation`, outside a bubble.
  @discardableResult
  public func settle(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column)
    async -> Bool
  {
    return await settle(sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The same, at an explicit `sourceLocation` (the public form takes the caller's literals).
  @discardableResult
  package func settle(sourceLocation: SourceLocation) async -> Bool {
    await quiet(sourceLocation: sourceLocation)
  }
}
