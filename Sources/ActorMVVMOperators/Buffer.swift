import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Groups elements into arrays, each emitted when it holds `count`
  /// elements or when `timeSpan` has passed on `clock` since the previous
  /// one was emitted, whichever comes first: Rx's
  /// `buffer(timeSpan:count:scheduler:)`.
  ///
  /// - **Timing:** the first window starts when the first `next()` is
  ///   called. A window that fills emits at once and starts the next
  ///   window then; one that reaches `timeSpan` emits what it holds —
  ///   **an empty array too**, as Rx does, so a quiet upstream yields `[]`
  ///   every `timeSpan`. Same instant: an element arriving at T joins the
  ///   window whose timer is due at T.
  /// - **Finishes** when `self` finishes, first emitting the open window
  ///   (empty or not, as Rx).
  /// - **Errors:** an upstream error is thrown at once; the open window is
  ///   dropped.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels the
  ///   upstream task and the timer.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** the open window (at most `count` elements); emitted
  ///   arrays wait for the consumer, at most 128 before the upstream stops
  ///   being pulled.
  @inlinable
  public func buffer<C: Clock>(timeSpan: C.Duration, count: Int, clock: C) -> AsyncBufferSequence<Self, C> {
    precondition(count > 0, "buffer(timeSpan:count:clock:): count must be at least 1, not \(count)")
    return AsyncBufferSequence(base: self, timeSpan: timeSpan, count: count, clock: clock)
  }

  /// ``buffer(timeSpan:count:clock:)`` on the `ContinuousClock`.
  @inlinable
  public func buffer(timeSpan: Duration, count: Int) -> AsyncBufferSequence<Self, ContinuousClock> {
    buffer(timeSpan: timeSpan, count: count, clock: ContinuousClock())
  }
}

/// The sequence returned by `buffer(timeSpan:count:clock:)`.
public struct AsyncBufferSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The type of the elements: one window's elements, in arrival order.
  public typealias Element = [Base.Element]
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = BufferStateMachine<Base.Element, C.Instant>

  @usableFromInline let base: Base
  @usableFromInline let timeSpan: C.Duration
  @usableFromInline let count: Int
  @usableFromInline let clock: C

  @inlinable init(base: Base, timeSpan: C.Duration, count: Int, clock: C) {
    self.base = base
    self.timeSpan = timeSpan
    self.count = count
    self.clock = clock
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base, timeSpan: timeSpan, count: count, clock: clock)
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline let timeSpan: C.Duration
    @usableFromInline let count: Int
    @usableFromInline let clock: C
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(base: Base, timeSpan: C.Duration, count: Int, clock: C) {
      self.base = base
      self.timeSpan = timeSpan
      self.count = count
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
      let (timeSpan, count) = (self.timeSpan, self.count)
      return try await reader.next(
        base: base, clock: clock, make: { Machine(timeSpan: timeSpan, count: count) }, timerAtStart: timeSpan,
        isolation: actor)
    }
  }
}

/// Buffer's decisions (STYLE §3), after RxSwift's `BufferTimeCountSink`:
/// the open window, and when it is due. The one timer runs from the start
/// and never stops before the end; a window that fills moves the deadline,
/// and the timer, waking at the old one, sleeps again until the new.
@usableFromInline
struct BufferStateMachine<Input: Sendable, Instant: InstantProtocol>: TimedStateMachine {
  @usableFromInline typealias Element = [Input]
  @usableFromInline typealias Event = TimedEvent<Input, Instant>
  @usableFromInline typealias Command = TimerCommand<Instant>

  @usableFromInline let timeSpan: Instant.Duration
  @usableFromInline let count: Int
  @usableFromInline var window: [Input] = []
  /// When the open window is due; nil until a window fills (the first
  /// window is due when the timer armed at the start wakes).
  @usableFromInline var deadline: Instant?

  @inlinable init(timeSpan: Instant.Duration, count: Int) {
    self.timeSpan = timeSpan
    self.count = count
  }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<[Input]>) -> Command? {
    switch event {
    case .element(let element, let now):
      window.append(element)
      if window.count == count {
        output.emit(window)
        window = []
        deadline = now.advanced(by: timeSpan)
      }
      return nil
    case .timerFired(let now):
      if let deadline, now < deadline { return .rearm(until: deadline) }  // a window filled meanwhile
      output.emit(window)
      window = []
      let next = now.advanced(by: timeSpan)
      deadline = next
      return .rearm(until: next)
    case .ended(nil, _):
      output.emit(window)
      window = []
      output.finish()
      return nil
    case .ended(let error?, _):
      window = []
      output.fail(error)
      return nil
    }
  }
}
