import ActorMVVM

extension AsyncSequence {
  /// Emits each running result of `accumulate`, starting from `initial`:
  /// Rx's `scan` (the seed itself is not emitted).
  ///
  /// Runs in the consumer's task, pulling `self` directly: it finishes and
  /// throws exactly when `self` does, and holds one result. A cancelled
  /// consumer gets nil at its next `next()` (and for an element the upstream
  /// hands back after the cancellation), even if `self` ignores
  /// cancellation. After it has returned nil or thrown, `next()` returns nil
  /// forever.
  @inlinable
  public func scan<Result>(
    _ initial: Result, _ accumulate: @escaping @Sendable (Result, Element) -> Result
  ) -> AsyncScanSequence<Self, Result> {
    AsyncScanSequence(base: self, initial: initial) { result, element in result = accumulate(result, element) }
  }

  /// Accumulates into a value updated in place, emitting it after each
  /// element: Rx's `scan(into:accumulator:)`. The contract of
  /// ``scan(_:_:)``. The value is the iterator's own, mutated where it is
  /// stored: once the consumer has let go of the element it last received,
  /// `update` finds it uniquely referenced, so appending to an array costs
  /// no copy (accumulating n elements is linear, not quadratic).
  @inlinable
  public func scan<Result>(
    into initial: Result, _ update: @escaping @Sendable (inout Result, Element) -> Void
  ) -> AsyncScanSequence<Self, Result> {
    AsyncScanSequence(base: self, initial: initial, update: update)
  }
}

/// The sequence returned by `scan(_:_:)` and `scan(into:_:)`.
public struct AsyncScanSequence<Base: AsyncSequence, Result>: AsyncSequence {
  /// The type of the elements.
  public typealias Element = Result
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let initial: Result
  @usableFromInline let update: @Sendable (inout Result, Base.Element) -> Void

  @inlinable init(base: Base, initial: Result, update: @escaping @Sendable (inout Result, Base.Element) -> Void) {
    self.base = base
    self.initial = initial
    self.update = update
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), result: initial, update: update)
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline var result: Result
    @usableFromInline let update: @Sendable (inout Result, Base.Element) -> Void
    @usableFromInline var done = false

    @inlinable init(
      base: Base.AsyncIterator, result: Result, update: @escaping @Sendable (inout Result, Base.Element) -> Void
    ) {
      self.base = base
      self.result = result
      self.update = update
    }

    @inlinable
    mutating func finish() -> Result? {
      done = true
      return nil
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Result? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Result? {
      // A cancelled consumer stops here, even over an upstream that ignores cancellation.
      guard !done, !Task.isCancelled else { return finish() }
      do {
        guard let element = try await base.next(isolation: actor), !Task.isCancelled else { return finish() }
        update(&result, element)
        return result
      } catch {
        done = true
        throw error
      }
    }
  }
}

extension AsyncScanSequence: Sendable where Base: Sendable, Result: Sendable {}
