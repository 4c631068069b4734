import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits each element, and the end, `interval` later on `clock`: Rx's
  /// `delay`.
  ///
  /// - **Timing:** each element is stamped with `clock.now` when it
  ///   arrives and emitted at that instant plus `interval`, in arrival
  ///   order; the end is delayed the same way. What is emitted, and when,
  ///   never depends on when the consumer pulls. Same instant: an element
  ///   arriving at T is handled before the delay timer due at T.
  /// - **Finishes** `interval` after `self` finishes, once every element
  ///   has been emitted.
  /// - **Errors** are not delayed: an upstream error is thrown at once and
  ///   the elements still waiting are dropped (as RxSwift's `delay`).
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels the
  ///   upstream task and the timer.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** every element waiting out its delay is held (without
  ///   bound, as in Rx: a sequence faster than `interval` holds
  ///   `interval × rate` of them); emitted elements wait for the consumer,
  ///   at most 128 before the upstream stops being pulled. The upstream and
  ///   the timer run in their own tasks, started by the first `next()`.
  @inlinable
  public func delay<C: Clock>(for interval: C.Duration, clock: C) -> AsyncDelaySequence<Self, C> {
    AsyncDelaySequence(base: self, interval: interval, clock: clock)
  }

  /// ``delay(for:clock:)`` on the `ContinuousClock`.
  @inlinable
  public func delay(for interval: Duration) -> AsyncDelaySequence<Self, ContinuousClock> {
    delay(for: interval, clock: ContinuousClock())
  }
}

/// The sequence returned by `delay(for:clock:)`.
public struct AsyncDelaySequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = DelayStateMachine<Base.Element, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C

  @inlinable init(base: Base, interval: C.Duration, clock: C) {
    self.base = base
    self.interval = interval
    self.clock = clock
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, interval: interval, clock: clock) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline let interval: C.Duration
    @usableFromInline let clock: C
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(base: Base, interval: C.Duration, clock: C) {
      self.base = base
      self.interval = interval
      self.clock = clock
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let interval = self.interval
      return try await reader.next(base: base, clock: clock, make: { Machine(interval: interval) }, isolation: actor)
    }
  }
}

/// Delay's decisions (STYLE §3), after RxSwift's `DelaySink`: a queue of
/// elements (and the end) with the instant each is due, and one timer that
/// sleeps until the first of them.
@usableFromInline
struct DelayStateMachine<Element: Sendable, Instant: InstantProtocol>: TimedStateMachine {
  @usableFromInline typealias Event = TimedEvent<Element, Instant>
  @usableFromInline typealias Command = TimerCommand<Instant>

  @usableFromInline let interval: Instant.Duration
  /// Elements waiting out their delay, oldest first; nil is the end.
  @usableFromInline var queue: [(element: Element?, due: Instant)] = []
  @usableFromInline var head = 0
  @usableFromInline var timerRunning = false

  @inlinable init(interval: Instant.Duration) { self.interval = interval }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    case .element(let element, let now):
      return enqueue(element, at: now)
    case .ended(nil, let now):
      return enqueue(nil, at: now)
    case .ended(let error?, _):
      queue = []
      head = 0
      output.fail(error)
      return nil
    case .timerFired(let now):
      while head < queue.count, queue[head].due <= now {
        guard let element = queue[head].element else {
          output.finish()
          return nil
        }
        output.emit(element)
        head += 1
      }
      if head == queue.count {
        queue.removeAll(keepingCapacity: true)
        head = 0
        timerRunning = false
        return nil
      }
      return .rearm(until: queue[head].due)
    }
  }

  @inlinable
  mutating func enqueue(_ element: Element?, at now: Instant) -> Command? {
    let due = now.advanced(by: interval)
    queue.append((element, due))
    guard !timerRunning else { return nil }
    timerRunning = true
    return .startTimer(until: due)
  }
}
