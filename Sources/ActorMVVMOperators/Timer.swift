import ActorMVVM

/// A sequence of ticks on a clock — 0, 1, 2, … — made by
/// ``timer(_:period:clock:)`` and ``interval(_:clock:)``: Rx's
/// `Observable<Int>.timer` and `Observable<Int>.interval`, on an injected
/// clock (a `TestClock` in tests).
///
/// - **Emits** tick `n` at `start + dueTime + n × period`, where `start` is
///   the clock's `now` at the first `next()` (Rx's subscription). The
///   deadlines are fixed from the start, so ticks do not drift; a consumer
///   that falls behind receives the ticks it missed at once, in order
///   (none is skipped). Without a period, one tick (0), then the end.
/// - **Finishes** after its one tick when made without a period; a
///   periodic one never finishes (end it by cancelling, or with
///   `prefix(_:)` or `take(until:)`).
/// - **Cancellation:** cancelling the consuming task ends the sequence at
///   its next `next()` (a sleep in progress is cancelled); nothing runs
///   between calls to `next()`: the sequence is pulled, with no task of
///   its own.
/// - **After the end:** `next()` returns nil forever.
/// - **Buffering:** none.
public struct AsyncTimerSequence<C: Clock>: AsyncSequence, Sendable {
  /// The type of the elements: the tick's number, from 0.
  public typealias Element = Int
  /// Never throws: cancellation ends it.
  public typealias Failure = Never

  @usableFromInline let dueTime: C.Duration
  @usableFromInline let period: C.Duration?
  @usableFromInline let clock: C

  @inlinable init(dueTime: C.Duration, period: C.Duration?, clock: C) {
    self.dueTime = dueTime
    self.period = period
    self.clock = clock
  }

  /// One tick `dueTime` after the first `next()`, then the end; with a
  /// `period`, a tick every `period` after that, forever: Rx's
  /// `Observable<Int>.timer(_:period:scheduler:)`.
  @inlinable
  public static func timer(_ dueTime: C.Duration, period: C.Duration? = nil, clock: C) -> Self {
    Self(dueTime: dueTime, period: period, clock: clock)
  }

  /// A tick every `period`, the first `period` after the first `next()`
  /// (not at once), forever: Rx's `Observable<Int>.interval(_:scheduler:)`.
  @inlinable
  public static func interval(_ period: C.Duration, clock: C) -> Self {
    Self(dueTime: period, period: period, clock: clock)
  }

  /// Makes this sequence's iterator; its start is the first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let sequence: AsyncTimerSequence
    @usableFromInline var next: (tick: Int, deadline: C.Instant)?
    @usableFromInline var done = false

    @inlinable init(sequence: AsyncTimerSequence) { self.sequence = sequence }

    /// The next tick, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async -> Int? {
      await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Int? {
      guard !done, !Task.isCancelled else { return finish() }
      let (tick, deadline) = next ?? (0, sequence.clock.now.advanced(by: sequence.dueTime))
      do {
        try await sequence.clock.sleep(until: deadline, tolerance: nil)
      } catch {
        return finish()
      }
      if let period = sequence.period {
        next = (tick + 1, deadline.advanced(by: period))
      } else {
        done = true
      }
      return tick
    }

    @inlinable
    mutating func finish() -> Int? {
      done = true
      return nil
    }
  }
}

extension AsyncTimerSequence where C == ContinuousClock {
  /// ``timer(_:period:clock:)`` on the `ContinuousClock`.
  @inlinable
  public static func timer(_ dueTime: Duration, period: Duration? = nil) -> Self {
    timer(dueTime, period: period, clock: ContinuousClock())
  }

  /// ``interval(_:clock:)`` on the `ContinuousClock`.
  @inlinable
  public static func interval(_ period: Duration) -> Self {
    interval(period, clock: ContinuousClock())
  }
}
