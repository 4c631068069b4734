import ActorMVVM

/// What `AsyncSequence/timeout(_:clock:)` throws when its upstream is
/// silent for longer than the interval.
public struct TimeoutError: Error, Equatable, Sendable {
  /// A timeout.
  public init() {}
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Throws ``TimeoutError`` if `self` produces no element (or end) within
  /// `interval` of the first `next()`, or of the previous element: Rx's
  /// `timeout(_:scheduler:)`, on an injected clock.
  ///
  /// - **Emits** every element of `self`, as it arrives.
  /// - **Finishes** when `self` finishes in time.
  /// - **Errors:** ``TimeoutError`` at the deadline, or the error of `self`.
  ///   Same instant, as RxSwift: an element or the end arriving at the
  ///   deadline itself is in time (an input at T comes before the timer due
  ///   at T); an end stamped after the deadline, before the timer has run,
  ///   is a timeout like an element would be. Either
  ///   way the upstream is cancelled. The sequence's `Failure` is
  ///   `any Error`.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels the
  ///   upstream and the timer.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Time and buffering:** elements are stamped on arrival on `clock`
  ///   (a `TestClock` in tests), so the deadline does not depend on when
  ///   the consumer pulls; the upstream runs in its own task, and at most
  ///   128 elements wait for the consumer.
  @inlinable
  public func timeout<C: Clock>(_ interval: C.Duration, clock: C) -> AsyncTimeoutSequence<Self, C> {
    AsyncTimeoutSequence(base: self, interval: interval, clock: clock)
  }
}

/// The sequence returned by `timeout(_:clock:)`.
public struct AsyncTimeoutSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = any Error
  @usableFromInline typealias Machine = TimeoutStateMachine<Base.Element, C.Instant>

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
    public typealias Failure = any Error

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
    public mutating func next() async throws -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
      let (base, interval, clock) = (self.base, self.interval, self.clock)
      return try await reader.next(
        start: {
          let deadline = clock.now.advanced(by: interval)
          let core = OperatorCore(Machine(interval: interval, deadline: deadline))
          core.spawn { core in
            await pump(
              base, into: core, wrap: { .element($0, at: clock.now) }, end: { .ended($0, at: clock.now) },
              perform: { command, core in core.performTimer(command, clock: clock) })
          }
          core.performTimer(.startTimer(until: deadline), clock: clock)
          return core
        }, failure: (any Error).self, isolation: actor)
    }
  }
}

/// timeout's decisions (STYLE §3): one deadline, moved by every element;
/// one timer, running from the start to the end, re-armed when it wakes
/// before the deadline.
@usableFromInline
struct TimeoutStateMachine<Element: Sendable, Instant: InstantProtocol>: TimedStateMachine {
  @usableFromInline typealias Event = TimedEvent<Element, Instant>
  @usableFromInline typealias Command = TimerCommand<Instant>

  @usableFromInline let interval: Instant.Duration
  @usableFromInline var deadline: Instant

  @inlinable init(interval: Instant.Duration, deadline: Instant) {
    self.interval = interval
    self.deadline = deadline
  }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    // An event at the deadline itself arrived in time (RxTest's rule: an
    // input at T comes before the timer due at T); the timer firing at the
    // deadline means nothing arrived in time.
    case .element(let element, let now):
      guard now <= deadline else {
        output.fail(TimeoutError())
        return nil
      }
      output.emit(element)
      deadline = now.advanced(by: interval)
    case .timerFired(let now):
      guard now < deadline else {
        output.fail(TimeoutError())
        return nil
      }
      return .rearm(until: deadline)
    case .ended(let error, let now):
      // Ends are stamped like elements: one that arrives after the deadline
      // (its timer not yet run) is a timeout too.
      guard now <= deadline else {
        output.fail(TimeoutError())
        return nil
      }
      if let error { output.fail(error) } else { output.finish() }
    }
    return nil
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Continues with `fallback` if `self` is silent for longer than
  /// `interval`: Rx's `timeout(_:other:scheduler:)`, on an injected clock.
  ///
  /// - **Emits** every element of `self` until the deadline passes with
  ///   nothing arriving; from then on, the elements of `fallback`.
  /// - **Finishes** when `self` finishes in time, or when `fallback`
  ///   finishes.
  /// - **Errors:** the error of `self` if it arrives in time, or the error
  ///   of `fallback` after the switch. Never ``TimeoutError``: a
  ///   ``TimeoutError`` thrown by `self` (an inner timeout) is passed on as
  ///   `self`'s error, not taken for this one. The sequence's `Failure` is
  ///   `any Error`.
  /// - **Same instant**, as ``timeout(_:clock:)``: an element or the end of
  ///   `self` arriving at the deadline itself is in time.
  /// - **When `fallback` starts:** it is iterated from the instant the
  ///   deadline passes (Rx subscribes to `other` then), never before, and
  ///   never if `self` ends in time. `self` is cancelled at the switch.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`, before or after the switch; that, or dropping the
  ///   iterator, cancels `self`, the timer and `fallback`'s iteration.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Time and buffering:** as ``timeout(_:clock:)`` until the switch
  ///   (`self` runs in its own task; at most 128 elements wait); after it,
  ///   `fallback` (which must be `Sendable`) is pulled directly in the
  ///   consumer's task and holds nothing.
  @inlinable
  public func timeout<C: Clock, Fallback: AsyncSequence & Sendable>(
    _ interval: C.Duration, clock: C, switchingTo fallback: Fallback
  ) -> AsyncTimeoutSwitchSequence<Self, C, Fallback> where Fallback.Element == Element {
    AsyncTimeoutSwitchSequence(base: self, interval: interval, clock: clock, fallback: fallback)
  }
}

/// The sequence returned by `timeout(_:clock:switchingTo:)`: the timeout
/// sequence under `catch`, which switches to the fallback on the deadline's
/// error and passes the upstream's own errors on.
public struct AsyncTimeoutSwitchSequence<
  Base: AsyncSequence & Sendable, C: Clock, Fallback: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where Base.Element: Sendable, Fallback.Element == Base.Element {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = any Error
  @usableFromInline typealias Primary = AsyncTimeoutSequence<UpstreamErrorTagging<Base>, C>
  @usableFromInline typealias Switching = AsyncCatchSequence<Primary, TimeoutFallback<Fallback>>

  @usableFromInline let switching: Switching

  @inlinable init(base: Base, interval: C.Duration, clock: C, fallback: Fallback) {
    let primary = Primary(base: UpstreamErrorTagging(base: base), interval: interval, clock: clock)
    switching = primary.catch { error in
      // Only the deadline throws untagged.
      if let upstream = error as? UpstreamFailure {
        TimeoutFallback.rethrowing(upstream.error)
      } else {
        .switching(to: fallback)
      }
    }
  }

  /// Makes this sequence's iterator (see the operator's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(switching: switching.makeAsyncIterator()) }

  /// The iterator: one consumer at a time; the contract is the operator's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = Base.Element
    /// The type of error iteration can throw.
    public typealias Failure = any Error

    @usableFromInline var switching: Switching.Iterator

    @inlinable init(switching: Switching.Iterator) { self.switching = switching }

    /// The next element, or nil once the sequence has ended.
    @inlinable
    public mutating func next() async throws -> Element? {
      try await switching.next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
      try await switching.next(isolation: actor)
    }
  }
}

/// What `timeout(_:clock:switchingTo:)` continues with after an error: the
/// fallback (the deadline passed) or the upstream's error, thrown once.
@usableFromInline
enum TimeoutFallback<Fallback: AsyncSequence>: AsyncSequence {
  case switching(to: Fallback)
  case rethrowing(any Error)

  @usableFromInline typealias Element = Fallback.Element
  @usableFromInline typealias Failure = any Error

  @inlinable func makeAsyncIterator() -> Iterator {
    switch self {
    case .switching(let fallback): Iterator(fallback: fallback.makeAsyncIterator(), error: nil)
    case .rethrowing(let error): Iterator(fallback: nil, error: error)
    }
  }

  @usableFromInline
  struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var fallback: Fallback.AsyncIterator?
    @usableFromInline var error: (any Error)?

    @inlinable init(fallback: Fallback.AsyncIterator?, error: (any Error)?) {
      self.fallback = fallback
      self.error = error
    }

    @inlinable mutating func next() async throws -> Element? { try await next(isolation: nil) }

    @inlinable mutating func next(isolation actor: isolated (any Actor)?) async throws -> Element? {
      if let error {
        self.error = nil
        throw error
      }
      return try await fallback?.next(isolation: actor)
    }
  }
}

/// An upstream's error, wrapped so that `timeout(_:clock:switchingTo:)`
/// tells it from its own deadline.
@usableFromInline
struct UpstreamFailure: Error {
  @usableFromInline let error: any Error
  @inlinable init(_ error: any Error) { self.error = error }
}

/// `self` with its errors wrapped in ``UpstreamFailure``.
@usableFromInline
struct UpstreamErrorTagging<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  @usableFromInline typealias Element = Base.Element
  @usableFromInline typealias Failure = any Error
  @usableFromInline let base: Base

  @inlinable init(base: Base) { self.base = base }

  @inlinable func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  @usableFromInline
  struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator

    @inlinable init(base: Base.AsyncIterator) { self.base = base }

    @inlinable mutating func next() async throws -> Base.Element? {
      try await next(isolation: nil)
    }

    @inlinable mutating func next(isolation actor: isolated (any Actor)?) async throws -> Base.Element? {
      do {
        return try await base.next(isolation: actor)
      } catch {
        throw UpstreamFailure(error)
      }
    }
  }
}
