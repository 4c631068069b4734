import ActorMVVMSupport

extension Effect {
  /// Runs `operation` at most once per `interval` for `id`: Rx's
  /// `throttle(_:latest:scheduler:)` for an input handled in `reduce`,
  /// with no bookkeeping in your state.
  ///
  /// ```swift
  /// case .refreshPulled:
  ///   return .throttle(id: RefreshID.pull, for: .seconds(2), clock: clock) { send in
  ///     send(.refreshed(await api.latestHeadlines()))
  ///   }
  /// ```
  ///
  /// Each time `reduce` returns this effect (an *arrival*), for the window
  /// of `id`:
  ///
  /// - **No window open:** the run starts now (with the batch, as every run
  ///   does) and a window of `interval` opens on `clock`.
  /// - **Inside the window:** with `latest: false` the run is dropped. With
  ///   `latest: true` (Rx's default) it is *held*, replacing a run held
  ///   before it (which never starts), and starts when the window closes,
  ///   opening the next window then. A window that closes with nothing
  ///   held simply ends.
  /// - **Same instant**, as RxSwift: an arrival exactly when the window
  ///   closes, before the held run has started, starts at once, and the
  ///   held run is dropped (inputs at an instant are handled before the
  ///   timers due at it, which a `TestClock` guarantees). Once the held run
  ///   has started, its start opened the next window: an arrival at that
  ///   same instant is held for that window's end (RxSwift's `lastSentTime`).
  ///   The window knows the run started (the run says so); it does not
  ///   infer it from the time.
  ///
  /// Admitted runs are independent of one another, as Rx's `throttle`
  /// followed by `flatMap`: one admitted later does not cancel one still
  /// running. ``cancel(id:)`` with `id` forgets the window (the next arrival
  /// starts at once) and cancels a held run that has not started; runs
  /// already started, a held one included, go on and their inputs are kept. ``Feature/finish()`` cancels a held run like any
  /// run.
  ///
  /// Windows are read from `clock.now` when `reduce` returns the effect, so
  /// they do not depend on when the work runs. The window of an `id` keeps
  /// the clock and interval of the effect that first opened it until it is
  /// forgotten by `cancel(id:)`.
  ///
  /// - Parameters:
  ///   - id: whose window this arrival counts against.
  ///   - interval: the window's length.
  ///   - clock: the clock windows are measured on (a `TestClock` in tests).
  ///   - latest: whether an arrival inside a window is held for its end
  ///     (`true`, Rx's default) or dropped.
  ///   - priority: the run's priority, as in ``run(id:priority:onFinish:operation:)``.
  ///   - onFinish: whether finishing the feature cancels an admitted run,
  ///     as in ``run(id:priority:onFinish:operation:)``. A held run is
  ///     always cancelled by finishing, even once its work has started.
  ///   - operation: the work; it sends inputs back through its ``Send``.
  @inlinable
  public static func throttle<C: Clock>(
    id: some Hashable & Sendable,
    for interval: C.Duration,
    clock: C,
    latest: Bool = true,
    priority: TaskPriority? = nil,
    onFinish: EffectFinishBehavior = .cancel,
    operation: @escaping @Sendable (Send<Input>) async -> Void
  ) -> Effect {
    Effect(
      kind: .throttle(
        Throttled(
          id: AnyCancelID(id), latest: latest, window: ThrottleWindow(clock: clock, interval: interval),
          run: Run(id: nil, priority: priority, onFinish: onFinish, operation: operation))))
  }

  /// `throttle(id:for:clock:latest:)` on a
  /// clock held as `any Clock<Duration>` (the usual way to inject one).
  @inlinable @_disfavoredOverload
  public static func throttle(
    id: some Hashable & Sendable,
    for interval: Duration,
    clock: any Clock<Duration>,
    latest: Bool = true,
    priority: TaskPriority? = nil,
    onFinish: EffectFinishBehavior = .cancel,
    operation: @escaping @Sendable (Send<Input>) async -> Void
  ) -> Effect {
    func window<C: Clock<Duration>>(_ clock: C) -> any ThrottleWindowing {
      ThrottleWindow(clock: clock, interval: interval)
    }
    return Effect(
      kind: .throttle(
        Throttled(
          id: AnyCancelID(id), latest: latest, window: window(clock),
          run: Run(id: nil, priority: priority, onFinish: onFinish, operation: operation))))
  }

  /// A run under a throttle window.
  @usableFromInline
  struct Throttled: Sendable {
    @usableFromInline let id: AnyCancelID
    @usableFromInline let latest: Bool
    /// A closed window, used if `id` has none open.
    @usableFromInline let window: any ThrottleWindowing
    @usableFromInline let run: Run

    @inlinable
    init(id: AnyCancelID, latest: Bool, window: any ThrottleWindowing, run: Run) {
      self.id = id
      self.latest = latest
      self.window = window
      self.run = run
    }
  }
}

/// What a throttle window decides for one arrival.
@usableFromInline
enum ThrottleDecision: Sendable {
  /// Start the run now; cancel the run held for window `cancelHeld`, if
  /// given (an arrival at the very instant it was due).
  case now(cancelHeld: UInt64?)
  /// Drop the run.
  case drop
  /// Hold the run until `wait` returns true (false: cancelled); it is
  /// keyed by window `window`, so a later arrival in the same window
  /// replaces it.
  case hold(window: UInt64, wait: @Sendable () async -> Bool)
}

/// One throttle id's window: the decisions of ``Effect/throttle``, on the
/// clock's current time. A value the ``EffectRunner`` keeps per id.
@usableFromInline
protocol ThrottleWindowing: Sendable {
  /// Decides for an arrival now.
  mutating func admit(latest: Bool) -> ThrottleDecision
  /// The window whose held run has not started yet, if any (a started
  /// one goes on, whatever cancels its id).
  var heldWindow: UInt64? { get }
}

/// A throttle window on one clock.
@usableFromInline
struct ThrottleWindow<C: Clock>: ThrottleWindowing {
  @usableFromInline let clock: C
  @usableFromInline let interval: C.Duration
  /// When the current window closes; nil when none has opened.
  @usableFromInline var end: C.Instant?
  /// Numbers the windows, so a held run is keyed by its window.
  @usableFromInline var serial: UInt64 = 0
  /// The run held for `end`, if any: set by the run itself when its wait
  /// ends and it starts. The window knows the start; it does not infer it
  /// from the time (RxSwift's `lastSentTime`, set when the timer fires).
  @usableFromInline var held: HeldStart?

  @inlinable
  init(clock: C, interval: C.Duration) {
    self.clock = clock
    self.interval = interval
  }

  @inlinable
  var heldWindow: UInt64? {
    guard let held, !held.hasStarted else { return nil }
    return serial
  }

  @inlinable
  mutating func admit(latest: Bool) -> ThrottleDecision {
    let now = clock.now
    if let held, let end, held.hasStarted || now > end {
      // The held run started at `end`, which opened the next window. (Past
      // `end` with its task not yet woken — a real clock's lateness — it is
      // about to start, at `end` as far as the window is concerned.)
      self.end = end.advanced(by: interval)
      serial &+= 1
      self.held = nil
      _ = held
    }
    if let end, now < end {
      guard latest else { return .drop }
      let start = HeldStart()
      held = start
      let clock = self.clock
      return .hold(
        window: serial,
        wait: {
          guard (try? await DeadlineTimer.sleep(on: clock, until: end)) != nil else { return false }
          start.markStarted()
          return true
        })
    }
    let dropped = heldWindow
    end = now.advanced(by: interval)
    serial &+= 1
    held = nil
    return .now(cancelHeld: dropped)
  }
}

/// Whether a held throttle run has started: written once by the run, read
/// by its window on the feature's actor.
@usableFromInline
final class HeldStart: Sendable {
  @usableFromInline let started = Locked(false)

  @inlinable init() {}

  @inlinable var hasStarted: Bool { started.withLock { $0 } }

  @inlinable func markStarted() { started.withLock { $0 = true } }
}

/// The cancellation id of a throttled run held for the end of its window.
@usableFromInline
struct ThrottleHeldID: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let id: AnyCancelID
  @usableFromInline let window: UInt64

  @inlinable
  init(id: AnyCancelID, window: UInt64) {
    self.id = id
    self.window = window
  }

  @usableFromInline var description: String { "\(id.description) (held)" }
}
