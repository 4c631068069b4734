import ActorMVVM

extension AsyncSequence {
  /// Skips elements equal to the one before them: Rx's `distinctUntilChanged`.
  ///
  /// Runs in the consumer's task, pulling `self` directly: it finishes and
  /// throws exactly when `self` does, and remembers one element. A
  /// cancelled consumer gets nil at its next `next()`, even if `self`
  /// ignores cancellation. After it has returned nil or thrown, `next()`
  /// returns nil forever, whatever `self` would do.
  @inlinable
  public func removeDuplicates() -> AsyncRemoveDuplicatesSequence<Self> where Element: Equatable & Sendable {
    AsyncRemoveDuplicatesSequence(base: self, isDuplicate: { $0 == $1 })
  }

  /// Skips elements that `isDuplicate` says repeat the one before them.
  @inlinable
  public func removeDuplicates(
    by isDuplicate: @escaping @Sendable (Element, Element) -> Bool
  ) -> AsyncRemoveDuplicatesSequence<Self> {
    AsyncRemoveDuplicatesSequence(base: self, isDuplicate: isDuplicate)
  }
}

/// The sequence returned by `removeDuplicates()`.
public struct AsyncRemoveDuplicatesSequence<Base: AsyncSequence>: AsyncSequence {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let isDuplicate: @Sendable (Element, Element) -> Bool

  @inlinable init(base: Base, isDuplicate: @escaping @Sendable (Element, Element) -> Bool) {
    self.base = base
    self.isDuplicate = isDuplicate
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), isDuplicate: isDuplicate)
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let isDuplicate: @Sendable (Element, Element) -> Bool
    @usableFromInline var last: Element?
    @usableFromInline var done = false

    @inlinable init(
      base: Base.AsyncIterator, isDuplicate: @escaping @Sendable (Element, Element) -> Bool, last: Element? = nil
    ) {
      self.base = base
      self.isDuplicate = isDuplicate
      self.last = last
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard !done else { return nil }
      do {
        // A cancelled consumer stops here, even over an upstream that ignores cancellation.
        while !Task.isCancelled, let element = try await base.next(isolation: actor), !Task.isCancelled {
          if let last, isDuplicate(last, element) { continue }
          last = element
          return element
        }
      } catch {
        done = true
        throw error
      }
      done = true
      return nil
    }
  }
}

extension AsyncRemoveDuplicatesSequence: Sendable where Base: Sendable {}

extension AsyncRemoveDuplicatesSequence: ReplayingAsyncSequence where Base: ReplayingAsyncSequence {
  /// The base's current element: a first element is never a duplicate.
  @inlinable public var currentElement: Element? { base.currentElement }

  /// The base's elements at start, each that repeats the one before it left out.
  @inlinable public var elementsAtStart: [Element] {
    var kept: [Element] = []
    for element in base.elementsAtStart where kept.last.map({ !isDuplicate($0, element) }) ?? true {
      kept.append(element)
    }
    return kept
  }
}
