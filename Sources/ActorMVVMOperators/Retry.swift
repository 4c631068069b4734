import ActorMVVM

/// How long `AsyncSequence/retry(_:backoff:clock:)` waits before each
/// new attempt.
public struct RetryBackoff<Duration: DurationProtocol>: Sendable {
  @usableFromInline let delay: @Sendable (_ failures: Int) -> Duration

  @inlinable init(delay: @escaping @Sendable (_ failures: Int) -> Duration) { self.delay = delay }

  /// Retries at once, as Rx's `retry(_:)`.
  public static var immediately: RetryBackoff { RetryBackoff { _ in .zero } }

  /// The same wait before every attempt.
  public static func constant(_ delay: Duration) -> RetryBackoff { RetryBackoff { _ in delay } }

  /// `initial` before the second attempt, then `multiplier` times the
  /// previous wait, never more than `maximum`.
  public static func exponential(initial: Duration, multiplier: Int = 2, maximum: Duration? = nil) -> RetryBackoff {
    RetryBackoff { failures in
      var delay = initial
      for _ in 1..<max(failures, 1) {
        delay = delay * multiplier
        if let maximum, delay >= maximum { return maximum }
      }
      if let maximum, delay > maximum { return maximum }
      return delay
    }
  }

  /// The wait after the `failures`-th failure (1 for the first).
  @inlinable public func delay(afterFailure failures: Int) -> Duration { delay(failures) }
}

extension AsyncSequence {
  /// Iterates `self` again when it throws, up to `maxAttempts` iterations
  /// in all, waiting `backoff` on `clock` before each new one: Rx's
  /// `retry(_:)` (whose count also includes the first subscription), with a
  /// back-off for requests.
  ///
  /// - **Emits** every element of every attempt, in order (elements an
  ///   attempt emitted before failing are not taken back, as in Rx).
  /// - **Finishes** when an attempt finishes.
  /// - **Errors:** the error of the last attempt, once `maxAttempts`
  ///   attempts have failed.
  /// - **Cancellation:** runs in the consumer's task, pulling `self`
  ///   directly; a cancelled consumer ends the sequence (nil) during a
  ///   back-off, and otherwise as `self` does.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever. Nothing is buffered.
  /// - **Time:** the back-off sleeps on the injected `clock` (a
  ///   `TestClock` in tests).
  @inlinable
  public func retry<C: Clock>(
    _ maxAttempts: Int, backoff: RetryBackoff<C.Duration> = .immediately, clock: C
  ) -> AsyncRetrySequence<Self, C> {
    precondition(maxAttempts >= 1, "retry needs at least one attempt, got \(maxAttempts)")
    return AsyncRetrySequence(base: self, maxAttempts: maxAttempts, backoff: backoff, clock: clock)
  }
}

/// The sequence returned by `retry(_:backoff:clock:)`.
public struct AsyncRetrySequence<Base: AsyncSequence, C: Clock>: AsyncSequence {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let maxAttempts: Int
  @usableFromInline let backoff: RetryBackoff<C.Duration>
  @usableFromInline let clock: C

  @inlinable init(base: Base, maxAttempts: Int, backoff: RetryBackoff<C.Duration>, clock: C) {
    self.base = base
    self.maxAttempts = maxAttempts
    self.backoff = backoff
    self.clock = clock
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(sequence: self) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let sequence: AsyncRetrySequence
    @usableFromInline var iterator: Base.AsyncIterator?
    @usableFromInline var failures = 0
    @usableFromInline var done = false

    @inlinable init(sequence: AsyncRetrySequence) { self.sequence = sequence }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while !done {
        if iterator == nil { iterator = sequence.base.makeAsyncIterator() }
        do {
          if let element = try await iterator!.next(isolation: actor) { return element }
          done = true
        } catch {
          failures += 1
          iterator = nil
          if failures >= sequence.maxAttempts {
            done = true
            throw error
          }
          let delay = sequence.backoff.delay(afterFailure: failures)
          do {
            if delay > .zero { try await sequence.clock.sleep(for: delay) }
            try Task.checkCancellation()
          } catch {
            done = true  // cancelled during the back-off
          }
        }
      }
      return nil
    }
  }
}

extension AsyncRetrySequence: Sendable where Base: Sendable {}
