import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits at most one element per `interval` on `clock`: Rx's
  /// `throttle(_:latest:scheduler:)`, with the same default (`latest: true`).
  ///
  /// - **Emits** the first element at once and opens a window of
  ///   `interval`. With `latest: true`, the last element that arrived
  ///   during the window is emitted when the window closes (opening the
  ///   next one); with `latest: false`, elements that arrive during the
  ///   window are dropped.
  /// - **Timing:** elements are stamped with `clock.now` on arrival and
  ///   windows are measured on `clock`, so what is emitted never depends on
  ///   when the consumer pulls. Same instant, as RxSwift: an element that
  ///   arrives the very instant its window closes is sent at once and the
  ///   held one is dropped (an input at T comes before the timer due at T;
  ///   on virtual time, `Marble` and `TestClock` deliver it so).
  /// - **Finishes** when `self` finishes; with `latest: true` and an element
  ///   still held, after emitting it when its window closes (as Rx does).
  /// - **Errors:** an upstream error is thrown at once; a held element is
  ///   dropped.
  /// - **Cancellation / after the end / buffering:** as
  ///   ``debounce(for:clock:)``.
  @inlinable
  public func throttle<C: Clock>(
    for interval: C.Duration, clock: C, latest: Bool = true
  ) -> AsyncThrottleSequence<Self, C> {
    AsyncThrottleSequence(base: self, interval: interval, clock: clock, latest: latest)
  }

  /// ``throttle(for:clock:latest:)`` on the `ContinuousClock`.
  @inlinable
  public func throttle(for interval: Duration, latest: Bool = true) -> AsyncThrottleSequence<Self, ContinuousClock> {
    throttle(for: interval, clock: ContinuousClock(), latest: latest)
  }
}

/// The sequence returned by `throttle(for:clock:latest:)`.
public struct AsyncThrottleSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = ThrottleStateMachine<Base.Element, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C
  @usableFromInline let latest: Bool

  @inlinable init(base: Base, interval: C.Duration, clock: C, latest: Bool) {
    self.base = base
    self.interval = interval
    self.clock = clock
    self.latest = latest
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base, interval: interval, clock: clock, latest: latest)
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = Base.Element
    /// The type of error iteration can throw.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let interval: C.Duration
    @usableFromInline let clock: C
    @usableFromInline let latest: Bool
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(base: Base, interval: C.Duration, clock: C, latest: Bool) {
      self.base = base
      self.interval = interval
      self.clock = clock
      self.latest = latest
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let (interval, latest) = (self.interval, self.latest)
      return try await reader.next(
        base: base, clock: clock, make: { Machine(interval: interval, latest: latest) }, isolation: actor)
    }
  }
}

/// Throttle's decisions (STYLE §3), after RxSwift's `Throttle`: a window
/// opens at each emission; a held element (latest mode) is emitted when
/// the window closes, at the instant it closes.
@usableFromInline
struct ThrottleStateMachine<Element: Sendable, Instant: InstantProtocol>: TimedStateMachine {
  @usableFromInline typealias Event = TimedEvent<Element, Instant>
  @usableFromInline typealias Command = TimerCommand<Instant>

  @usableFromInline let interval: Instant.Duration
  @usableFromInline let latest: Bool
  /// When the last emission happened: the current window is
  /// `lastEmitted ..< lastEmitted + interval`.
  @usableFromInline var lastEmitted: Instant?
  @usableFromInline var held: Element?
  @usableFromInline var timerRunning = false
  /// The upstream finished while an element was held: finish after it.
  @usableFromInline var finishing = false

  @inlinable init(interval: Instant.Duration, latest: Bool) {
    self.interval = interval
    self.latest = latest
  }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    case .element(let element, let now):
      if held != nil, let lastEmitted, lastEmitted.advanced(by: interval) == now {
        // As RxSwift: an element arriving the very instant the window closes
        // is sent at once, and the held one is dropped (an input at T comes
        // before the timer due at T).
        held = nil
      } else {
        emitHeldIfDue(at: now, into: &output)
      }
      if let lastEmitted, now < lastEmitted.advanced(by: interval) {
        guard latest else { return nil }  // inside the window: dropped
        held = element
        guard !timerRunning else { return nil }
        timerRunning = true
        return .startTimer(until: lastEmitted.advanced(by: interval))
      }
      output.emit(element)
      lastEmitted = now
      return nil
    case .timerFired(let now):
      precondition(timerRunning, "ThrottleStateMachine: a timer fired while none was running, in \(self)")
      emitHeldIfDue(at: now, into: &output)
      if held != nil, let lastEmitted { return .rearm(until: lastEmitted.advanced(by: interval)) }
      timerRunning = false
      if finishing { output.finish() }
      return nil
    case .ended(let error?, _):
      held = nil
      output.fail(error)
      return nil
    case .ended(nil, _):
      precondition(!finishing, "ThrottleStateMachine: the upstream ended twice, in \(self)")
      if held != nil { finishing = true } else { output.finish() }
      return nil
    }
  }

  /// Emits the held element if its window has closed by `now`; the
  /// emission happens at the closing instant, which opens the next window.
  @inlinable
  mutating func emitHeldIfDue(at now: Instant, into output: inout OperatorOutput<Element>) {
    guard let element = held, let lastEmitted else { return }
    let closes = lastEmitted.advanced(by: interval)
    guard closes <= now else { return }
    output.emit(element)
    held = nil
    self.lastEmitted = closes
    if finishing { output.finish() }
  }
}
