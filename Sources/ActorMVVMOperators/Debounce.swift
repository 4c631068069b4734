import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element only after `interval` of silence on `clock` has
  /// followed it: Rx's `debounce`.
  ///
  /// - **Timing:** each element is stamped with `clock.now` when it
  ///   arrives, and its deadline is that instant plus `interval`; a timer on
  ///   `clock` emits it at the deadline unless a newer element arrived
  ///   first. What is emitted never depends on when the consumer pulls: a
  ///   busy consumer receives the same elements, later. Same instant, as
  ///   RxSwift: a new arrival at the very instant a pending element is due
  ///   replaces it (an input at T comes before the timer due at T).
  /// - **Finishes** when `self` finishes, first emitting a pending element
  ///   at once (it does not wait out the interval), as Rx does.
  /// - **Errors:** an upstream error is thrown at once; a pending element is
  ///   dropped (Rx forwards the error the same way).
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels the
  ///   upstream task and the timer.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** one pending element; emitted elements wait for the
  ///   consumer, at most 128 before the upstream stops being pulled. The
  ///   upstream and the timer run in their own tasks, started by the first
  ///   `next()`.
  @inlinable
  public func debounce<C: Clock>(
    for interval: C.Duration, clock: C
  ) -> AsyncDebounceSequence<Self, C> {
    AsyncDebounceSequence(base: self, interval: interval, clock: clock)
  }

  /// ``debounce(for:clock:)`` on the `ContinuousClock`.
  @inlinable
  public func debounce(for interval: Duration) -> AsyncDebounceSequence<Self, ContinuousClock> {
    debounce(for: interval, clock: ContinuousClock())
  }
}

/// The sequence returned by `debounce(for:clock:)`.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = DebounceStateMachine<Base.Element, C.Instant>

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
    /// The type of the elements.
    public typealias Element = Base.Element
    /// The type of error iteration can throw.
    public typealias Failure = Base.Failure

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
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let interval = self.interval
      return try await reader.next(base: base, clock: clock, make: { Machine(interval: interval) }, isolation: actor)
    }
  }
}

/// Debounce's decisions (STYLE §3). One timer at a time: while it runs, a
/// newer element only moves the deadline, and the timer, when it wakes
/// early, sleeps again until the new one.
@usableFromInline
struct DebounceStateMachine<Element: Sendable, Instant: InstantProtocol>: TimedStateMachine {
  @usableFromInline typealias Event = TimedEvent<Element, Instant>
  @usableFromInline typealias Command = TimerCommand<Instant>

  @usableFromInline let interval: Instant.Duration
  @usableFromInline var pending: (element: Element, deadline: Instant)?
  @usableFromInline var timerRunning = false

  @inlinable init(interval: Instant.Duration) { self.interval = interval }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    case .element(let element, let now):
      // A pending element due before this arrival was due (its timer is
      // late, on real time): emitted first. One due at this very instant is
      // replaced, as in RxSwift (an input at T comes before the timer at T).
      if let pending, pending.deadline < now {
        output.emit(pending.element)
        self.pending = nil
      }
      pending = (element, now.advanced(by: interval))
      guard !timerRunning else { return nil }
      timerRunning = true
      return .startTimer(until: now.advanced(by: interval))
    case .timerFired(let now):
      precondition(timerRunning, "DebounceStateMachine: a timer fired while none was running, in \(self)")
      emitIfDue(at: now, into: &output)
      if let pending { return .rearm(until: pending.deadline) }
      timerRunning = false
      return nil
    case .ended(let error?, _):
      pending = nil
      output.fail(error)
      return nil
    case .ended(nil, _):
      if let pending { output.emit(pending.element) }
      pending = nil
      output.finish()
      return nil
    }
  }

  @inlinable
  mutating func emitIfDue(at now: Instant, into output: inout OperatorOutput<Element>) {
    guard let pending, pending.deadline <= now else { return }
    output.emit(pending.element)
    self.pending = nil
  }
}
