import ActorMVVM

/// A sequence whose elements are all known when it is made: iterating it
/// yields ``immediateElements`` without suspending, then ends. It never
/// fails. RxSwift's `just` and `from` are such sequences (``AsyncJust``).
///
/// Operators take one without starting a task, as RxSwift subscribes to a
/// `just` synchronously:
/// - `flatMapMerge`, `concatMap`, `flatMapFirst` and `flatMapLatest` whose
///   closure returns one are inline stages (``AsyncFlatMapImmediateSequence``):
///   every inner's elements follow its outer element at once, as in Rx,
///   where an inner that ends at subscription is never superseded nor busy.
/// - `combineLatest`, `zip` and `merge` deliver an immediate upstream's
///   elements and end when they start, and pump only the other upstreams
///   in tasks of their own; if only one other is left, the consumer pulls
///   it itself, in its task and isolation, as `map` pulls its base: no task
///   at all, and no element of it can arrive before the immediate ones
///   (but in `merge(replaying, just)`, where Rx's order puts the replaying
///   upstream's current element first). A consumer cancelled while it
///   waits for that upstream gets nil, never a late element; since a pull
///   in place cannot be abandoned, the nil comes when the upstream answers
///   (at once for ActorMVVM's relays, which answer a cancellation), where
///   the operator with tasks returns it at once.
///
/// Conform a sequence of your own only if it keeps this contract: its
/// iterator never suspends and yields exactly `immediateElements`.
public protocol ImmediateAsyncSequence<Element>: AsyncSequence, Sendable where Failure == Never, Element: Sendable {
  /// Every element an iteration yields, in order.
  var immediateElements: [Element] { get }
}

/// One element, then the end: RxSwift's `Observable.just`. An
/// ``ImmediateAsyncSequence``: operators take it without a task.
public struct AsyncJust<Element: Sendable>: ImmediateAsyncSequence, ChainableAsyncSequence {
  /// It never fails.
  public typealias Failure = Never
  @usableFromInline let element: Element

  /// A sequence of `element` alone.
  @inlinable public init(_ element: Element) { self.element = element }

  /// `[element]`.
  @inlinable public var immediateElements: [Element] { [element] }

  /// Makes an iterator that yields the element once; each iterator is independent.
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(element: element) }

  /// The iterator: the element, then nil forever. Never suspends.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var element: Element?

    @inlinable init(element: Element) { self.element = element }

    /// The element the first time, then nil.
    @inlinable @inline(__always)
    public mutating func next() async -> Element? { take() }

    /// `next()`; the caller's isolation is kept (nothing suspends).
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? { take() }

    @inlinable @inline(__always)
    mutating func take() -> Element? {
      defer { element = nil }
      return element
    }
  }
}

// Declared twice: for a never-failing outer sequence (where the operators
// with tasks also apply, and these must be the more specialised), and for
// any outer sequence (where only these take a never-failing inner).
extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// The same operator for a never-failing outer sequence.
  @inlinable
  public func flatMapMerge<Inner: ImmediateAsyncSequence>(
    maxConcurrent: Int = .max, _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    precondition(maxConcurrent > 0, "flatMapMerge(maxConcurrent: \(maxConcurrent)): at least one inner must run")
    return AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }

  /// The same operator for a never-failing outer sequence.
  @inlinable
  public func concatMap<Inner: ImmediateAsyncSequence>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }

  /// The same operator for a never-failing outer sequence.
  @inlinable
  public func flatMapFirst<Inner: ImmediateAsyncSequence>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }

  /// The same operator for a never-failing outer sequence.
  @inlinable
  public func flatMapLatest<Inner: ImmediateAsyncSequence>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// `flatMapMerge(maxConcurrent:_:)` for a closure that returns an
  /// ``ImmediateAsyncSequence``: an inline stage with no task, since an
  /// inner that ends at once never overlaps the next (`maxConcurrent` is
  /// moot and ignored). See ``AsyncFlatMapImmediateSequence``.
  @inlinable
  public func flatMapMerge<Inner: ImmediateAsyncSequence>(
    maxConcurrent: Int = .max, _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    precondition(maxConcurrent > 0, "flatMapMerge(maxConcurrent: \(maxConcurrent)): at least one inner must run")
    return AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }

  /// `concatMap(_:)` for a closure that returns an ``ImmediateAsyncSequence``:
  /// the inline stage of ``AsyncFlatMapImmediateSequence``.
  @inlinable
  public func concatMap<Inner: ImmediateAsyncSequence>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }

  /// `flatMapFirst(_:)` for a closure that returns an ``ImmediateAsyncSequence``:
  /// no outer element is dropped, as in Rx, since no inner is still running
  /// when the next arrives. The inline stage of ``AsyncFlatMapImmediateSequence``.
  @inlinable
  public func flatMapFirst<Inner: ImmediateAsyncSequence>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }

  /// `flatMapLatest(_:)` for a closure that returns an ``ImmediateAsyncSequence``:
  /// no inner is superseded, as in Rx, since each has ended before the next
  /// outer element. The inline stage of ``AsyncFlatMapImmediateSequence``.
  @inlinable
  public func flatMapLatest<Inner: ImmediateAsyncSequence>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapImmediateSequence<Self, Inner> {
    AsyncFlatMapImmediateSequence(base: self, transform: transform)
  }
}

/// What the flatMap operators return for a closure that makes an
/// ``ImmediateAsyncSequence``: each outer element's inner elements, in
/// order, before the next outer element is pulled.
///
/// - **Runs** in the consumer's task, pulling the outer sequence directly:
///   no task, nothing buffered beyond the current inner.
/// - **Finishes** when the outer sequence finishes (the last inner has
///   ended by then); **throws** the outer's error, typed.
/// - **Cancellation:** a cancelled consumer gets nil at its next `next()`,
///   even over an outer sequence that ignores cancellation.
/// - **After the end:** once it has returned nil or thrown, `next()`
///   returns nil forever.
public struct AsyncFlatMapImmediateSequence<Base: AsyncSequence, Inner: ImmediateAsyncSequence>: ChainableAsyncSequence
{
  /// The type of the elements: the inners'.
  public typealias Element = Inner.Element
  /// The type of error iteration can throw: the outer's.
  public typealias Failure = Base.Failure
  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Inner

  @inlinable init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
    self.base = base
    self.transform = transform
  }

  /// Makes the iterator, which makes the outer's: work starts as the outer's does.
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), transform: transform) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let transform: @Sendable (Base.Element) -> Inner
    @usableFromInline var inner: Inner.AsyncIterator?
    @usableFromInline var done = false

    @inlinable init(base: Base.AsyncIterator, transform: @escaping @Sendable (Base.Element) -> Inner) {
      self.base = base
      self.transform = transform
    }

    /// The current inner's next element, else the next outer element's inner's first.
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? { try await next(isolation: nil) }

    /// `next()` for a caller isolated to `actor`, which the outer resumes on.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      // Cancellation is looked at once per call: the contract is "nil at the
      // next `next()`", and each look costs a runtime call per stage.
      guard !done, !Task.isCancelled else { return end() }
      while true {
        if inner != nil {
          // Never suspends: an immediate sequence's iterator, advanced in place.
          if let element = await inner!.next(isolation: actor) { return element }
          inner = nil
        }
        do {
          guard let element = try await base.next(isolation: actor) else { return end() }
          inner = transform(element).makeAsyncIterator()
        } catch {
          done = true
          inner = nil
          throw error
        }
      }
    }

    /// Ends the iteration: nil now and forever.
    @inlinable
    mutating func end() -> Element? {
      done = true
      inner = nil
      return nil
    }
  }
}

extension AsyncFlatMapImmediateSequence: Sendable where Base: Sendable {}
