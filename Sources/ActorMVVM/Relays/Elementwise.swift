/// One of ActorMVVM's own sequences, whose `map`, `filter` and `compactMap`
/// are ActorMVVM's: Rx users chain them on every relay, so they cost a few
/// instructions per stage.
///
/// The standard library's `map` and `filter` take `async` closures and run
/// unspecialised inside the concurrency library, about 2,000 instructions
/// per stage per element. These take synchronous `@Sendable` closures and
/// are `@inlinable`, so a chain of stages specialises in the caller's module
/// and folds into the consumer's loop. A closure that is `async`, `throws`
/// or not `@Sendable` selects the standard library's operator, unchanged.
///
/// The relays' sequences (``EventRelay/Values``, ``StateRelay/Values``),
/// these stages, and the sequences of `ActorMVVMOperators` conform. A stage
/// starts no task and buffers nothing: it pulls its base in the consumer's
/// task, in the consumer's isolation, and ends, throws and is cancelled
/// exactly when its base does. Over a ``ReplayingAsyncSequence`` a stage is
/// one too (the base's current element, transformed or filtered), as a
/// `BehaviorRelay`'s `map` replays in Rx.
///
/// Conform a sequence of your own to opt in; there is nothing to implement.
public protocol ChainableAsyncSequence<Element, Failure>: AsyncSequence {}

extension ChainableAsyncSequence {
  /// Transforms each element: Rx's `map`, run inline (see ``ChainableAsyncSequence``).
  @inlinable
  public func map<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed
  ) -> AsyncMappedSequence<Self, Transformed> {
    AsyncMappedSequence(base: self, transform: transform)
  }

  /// Keeps the elements `isIncluded` accepts: Rx's `filter`, run inline.
  @inlinable
  public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> AsyncFilteredSequence<Self> {
    AsyncFilteredSequence(base: self, isIncluded: isIncluded)
  }

  /// Transforms each element and skips the nils: Rx's `compactMap`, run inline.
  @inlinable
  public func compactMap<Transformed>(
    _ transform: @escaping @Sendable (Element) -> Transformed?
  ) -> AsyncCompactMappedSequence<Self, Transformed> {
    AsyncCompactMappedSequence(base: self, transform: transform)
  }
}

/// The sequence ``ChainableAsyncSequence/map(_:)`` returns: one element out
/// per element in, in the consumer's task.
public struct AsyncMappedSequence<Base: AsyncSequence, Element>: ChainableAsyncSequence {
  /// The type of error iteration can throw: the base's.
  public typealias Failure = Base.Failure
  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Element

  @inlinable init(base: Base, transform: @escaping @Sendable (Base.Element) -> Element) {
    self.base = base
    self.transform = transform
  }

  /// Makes the iterator, which makes the base's: work starts as the base's does.
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), transform: transform) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let transform: @Sendable (Base.Element) -> Element

    @inlinable init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element) -> Element) {
      self.base = base
      self.transform = transform
    }

    /// The base's next element, transformed; nil when the base ends.
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? { try await next(isolation: nil) }

    /// `next()` for a caller isolated to `actor`, which the base resumes on.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard let element = try await base.next(isolation: actor) else { return nil }
      return transform(element)
    }
  }
}

/// The sequence ``ChainableAsyncSequence/filter(_:)`` returns: the base's
/// accepted elements, in the consumer's task.
public struct AsyncFilteredSequence<Base: AsyncSequence>: ChainableAsyncSequence {
  /// The type of the elements: the base's.
  public typealias Element = Base.Element
  /// The type of error iteration can throw: the base's.
  public typealias Failure = Base.Failure
  @usableFromInline let base: Base
  @usableFromInline let isIncluded: @Sendable (Element) -> Bool

  @inlinable init(base: Base, isIncluded: @escaping @Sendable (Element) -> Bool) {
    self.base = base
    self.isIncluded = isIncluded
  }

  /// Makes the iterator, which makes the base's: work starts as the base's does.
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), isIncluded: isIncluded) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let isIncluded: @Sendable (Element) -> Bool

    @inlinable init(base: Base.AsyncIterator, isIncluded: @escaping @Sendable (Element) -> Bool) {
      self.base = base
      self.isIncluded = isIncluded
    }

    /// The base's next accepted element; nil when the base ends.
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? { try await next(isolation: nil) }

    /// `next()` for a caller isolated to `actor`, which the base resumes on.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        if isIncluded(element) { return element }
      }
      return nil
    }
  }
}

/// The sequence ``ChainableAsyncSequence/compactMap(_:)`` returns: the
/// base's elements transformed, nils skipped, in the consumer's task.
public struct AsyncCompactMappedSequence<Base: AsyncSequence, Element>: ChainableAsyncSequence {
  /// The type of error iteration can throw: the base's.
  public typealias Failure = Base.Failure
  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Element?

  @inlinable init(base: Base, transform: @escaping @Sendable (Base.Element) -> Element?) {
    self.base = base
    self.transform = transform
  }

  /// Makes the iterator, which makes the base's: work starts as the base's does.
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), transform: transform) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let transform: @Sendable (Base.Element) -> Element?

    @inlinable init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element) -> Element?) {
      self.base = base
      self.transform = transform
    }

    /// The base's next element that transforms to a value; nil when the base ends.
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? { try await next(isolation: nil) }

    /// `next()` for a caller isolated to `actor`, which the base resumes on.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      while let element = try await base.next(isolation: actor) {
        if let transformed = transform(element) { return transformed }
      }
      return nil
    }
  }
}

extension AsyncMappedSequence: Sendable where Base: Sendable {}
extension AsyncFilteredSequence: Sendable where Base: Sendable {}
extension AsyncCompactMappedSequence: Sendable where Base: Sendable {}

extension AsyncMappedSequence: ReplayingAsyncSequence where Base: ReplayingAsyncSequence {
  /// The base's current element, transformed.
  @inlinable public var currentElement: Element? { base.currentElement.map(transform) }
  /// The base's elements at start, transformed.
  @inlinable public var elementsAtStart: [Element] { base.elementsAtStart.map(transform) }
}

extension AsyncFilteredSequence: ReplayingAsyncSequence where Base: ReplayingAsyncSequence {
  /// The first of ``elementsAtStart``.
  @inlinable public var currentElement: Element? { elementsAtStart.first }
  /// The base's elements at start that are accepted.
  @inlinable public var elementsAtStart: [Element] { base.elementsAtStart.filter(isIncluded) }
}

extension AsyncCompactMappedSequence: ReplayingAsyncSequence where Base: ReplayingAsyncSequence {
  /// The first of ``elementsAtStart``.
  @inlinable public var currentElement: Element? { elementsAtStart.first }
  /// The base's elements at start, transformed, the nils left out.
  @inlinable public var elementsAtStart: [Element] { base.elementsAtStart.compactMap(transform) }
}

extension EventRelay.Values: ChainableAsyncSequence {}
extension StateRelay.Values: ChainableAsyncSequence {}
