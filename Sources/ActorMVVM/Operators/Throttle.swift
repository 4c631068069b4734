extension AsyncSequence {
  /// Lets through at most one element per `interval`: the first element
  /// passes, and later ones are dropped until `interval` has passed on
  /// `clock` since the last one that passed (Rx's `throttle(latest: false)`).
  ///
  /// Reads `clock.now` only; starts no task and no timer. Finishes, throws
  /// and cancels exactly when `self` does; buffers nothing.
  @inlinable
  public func throttle<C: Clock>(
    for interval: C.Duration, clock: C
  ) -> AsyncThrottleSequence<Self, C> {
    AsyncThrottleSequence(base: self, interval: interval, clock: clock)
  }

  /// ``throttle(for:clock:)`` on the `ContinuousClock`.
  @inlinable
  public func throttle(for interval: Duration) -> AsyncThrottleSequence<Self, ContinuousClock> {
    throttle(for: interval, clock: ContinuousClock())
  }
}

/// The sequence returned by `throttle(for:clock:)`.
public struct AsyncThrottleSequence<Base: AsyncSequence, C: Clock>: AsyncSequence {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C

  @inlinable init(base: Base, interval: C.Duration, clock: C) {
    self.base = base
    self.interval = interval
    self.clock = clock
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), interval: interval, clock: clock)
  }

  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let interval: C.Duration
    @usableFromInline let clock: C
    @usableFromInline var lastPassed: C.Instant?

    @inlinable init(base: Base.AsyncIterator, interval: C.Duration, clock: C, lastPassed: C.Instant? = nil) {
      self.base = base
      self.interval = interval
      self.clock = clock
      self.lastPassed = lastPassed
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        let now = clock.now
        if let lastPassed, lastPassed.duration(to: now) < interval { continue }
        lastPassed = now
        return element
      }
      return nil
    }
  }
}

extension AsyncThrottleSequence: Sendable where Base: Sendable, C: Sendable {}
