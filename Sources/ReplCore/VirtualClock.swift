import ActorMVVM
import ActorMVVMJobCount

/// The REPL's clock in a script: time moves only when the session moves it,
/// to the next deadline, once nothing else can happen (see ``ReplSession``).
/// So a script's transcript, latency and all, is the same on every run, and
/// takes no real time.
///
/// Its engine is `TestClock`'s (`VirtualTimeline`), so every rule of
/// virtual time is the same in a script as in a test:
/// - A sleeper whose deadline has come returns; one whose task is cancelled
///   throws `CancellationError` at once and stops counting as a sleeper.
/// - Sleepers due at one instant wake one at a time, in the order they
///   began sleeping (operators' deadline timers after the others), each
///   one's work settled before the next.
/// - `Sendable`; one task (the session) moves time.
public final class VirtualClock: Clock, Sendable {
  /// A point on the virtual timeline: the time since the clock started.
  public typealias Instant = ManualInstant

  private let timeline = VirtualTimeline()

  /// A clock at offset zero with no sleepers. The session asks its job
  /// count when nothing can run: the bubble the REPL runs its whole session
  /// in (`ReplApp.withJobCountScope`), or a test's.
  public init() {}

  /// The current virtual time.
  public var now: Instant { timeline.now }
  /// Zero: virtual time has no granularity.
  public var minimumResolution: Duration { .zero }
  /// Tasks asleep on this clock right now.
  public var sleeperCount: Int { timeline.sleeperCount }
  /// The earliest deadline of the tasks asleep, if any.
  public var nextDeadline: Instant? { timeline.nextDeadline }

  /// Suspends until the clock is moved to `deadline` (returns at once if
  /// it has passed); throws `CancellationError` if the task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await timeline.sleep(until: deadline)
  }

  /// Moves time to `instant` (never back), waking the sleepers due by then
  /// one at a time in the timeline's order, each one's work settled before
  /// the next. Returns early if the calling task is cancelled.
  public func advance(to instant: Instant) async {
    await timeline.advance(
      through: instant, including: true, settle: { await Quiescence.untilIdle() == .idle })
  }
}
