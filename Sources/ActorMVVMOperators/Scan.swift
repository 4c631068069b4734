import ActorMVVM

extension AsyncSequence {
  /// Emits each running result of `accumulate`, starting from `initial`:
  /// Rx's `scan` (the seed itself is not emitted).
  ///
  /// Runs in the consumer's task, pulling `self` directly: it finishes,
  /// throws and cancels exactly when `self` does, and holds one result.
  /// After it has returned nil or thrown, `next()` returns nil forever.
  @inlinable
  public func scan<Result>(
    _ initial: Result, _ accumulate: @escaping @Sendable (Result, Element) -> Result
  ) -> AsyncScanSequence<Self, Result> {
    AsyncScanSequence(base: self, initial: initial, accumulate: accumulate)
  }
}

/// The sequence returned by `scan(_:_:)`.
public struct AsyncScanSequence<Base: AsyncSequence, Result>: AsyncSequence {
  public typealias Element = Result
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let initial: Result
  @usableFromInline let accumulate: @Sendable (Result, Base.Element) -> Result

  @inlinable init(base: Base, initial: Result, accumulate: @escaping @Sendable (Result, Base.Element) -> Result) {
    self.base = base
    self.initial = initial
    self.accumulate = accumulate
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), result: initial, accumulate: accumulate)
  }

  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline var result: Result
    @usableFromInline let accumulate: @Sendable (Result, Base.Element) -> Result
    @usableFromInline var done = false

    @inlinable init(
      base: Base.AsyncIterator, result: Result, accumulate: @escaping @Sendable (Result, Base.Element) -> Result
    ) {
      self.base = base
      self.result = result
      self.accumulate = accumulate
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Result? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Result? {
      guard !done else { return nil }
      do {
        guard let element = try await base.next(isolation: actor) else {
          done = true
          return nil
        }
        result = accumulate(result, element)
        return result
      } catch {
        done = true
        throw error
      }
    }
  }
}

extension AsyncScanSequence: Sendable where Base: Sendable, Result: Sendable {}
