import ActorMVVM

extension AsyncSequence {
  /// Emits `elements` first, then the elements of `self`: Rx's `startWith`.
  ///
  /// Runs in the consumer's task: the prefix is returned without
  /// suspending, then `self` is pulled directly (it is iterated only once
  /// the prefix is consumed, as Rx subscribes after emitting the prefix),
  /// and the sequence finishes and throws when `self` does. A cancelled
  /// consumer stops at its next `next()`, prefix included, even if `self`
  /// ignores cancellation. After
  /// it has returned nil or thrown, `next()` returns nil forever.
  @inlinable
  public func prepend(_ elements: Element...) -> AsyncPrependSequence<Self> {
    AsyncPrependSequence(base: self, prefix: elements)
  }
}

/// The sequence returned by `prepend(_:)`.
public struct AsyncPrependSequence<Base: AsyncSequence>: AsyncSequence {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let prefix: [Base.Element]

  @inlinable init(base: Base, prefix: [Base.Element]) {
    self.base = base
    self.prefix = prefix
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, prefix: prefix) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline let prefix: [Base.Element]
    @usableFromInline var index = 0
    @usableFromInline var iterator: Base.AsyncIterator?
    @usableFromInline var done = false

    @inlinable init(base: Base, prefix: [Base.Element]) {
      self.base = base
      self.prefix = prefix
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
      if index < prefix.count {
        if Task.isCancelled {
          done = true
          return nil
        }
        defer { index += 1 }
        return prefix[index]
      }
      if iterator == nil { iterator = base.makeAsyncIterator() }
      if Task.isCancelled {  // a cancelled consumer stops here, whatever the upstream does
        done = true
        return nil
      }
      do {
        if let element = try await iterator!.next(isolation: actor), !Task.isCancelled { return element }
        done = true
        return nil
      } catch {
        done = true
        throw error
      }
    }
  }
}

extension AsyncPrependSequence: Sendable where Base: Sendable, Base.Element: Sendable {}

extension AsyncPrependSequence: ReplayingAsyncSequence {
  /// The first of ``elementsAtStart``.
  @inlinable public var currentElement: Element? { elementsAtStart.first }

  /// The prefix, then what `self` begins with if it replays: Rx's
  /// `startWith` emits the prefix inside `subscribe`, then subscribes.
  @inlinable public var elementsAtStart: [Element] { prefix + startElements(of: base) }
}
