import ActorMVVM

extension AsyncSequence {
  /// Continues with the sequence `handler` makes from the error, if `self`
  /// throws: Rx's `catch`.
  ///
  /// Runs in the consumer's task, pulling `self` directly, then the
  /// fallback (made when the error arrives, and iterated from then on, as
  /// Rx subscribes to it then). Emits `self`'s elements, then the
  /// fallback's; finishes when `self` finishes without an error, or when
  /// the fallback finishes; throws what the fallback throws (its
  /// `Failure`: a fallback that never throws makes a sequence that never
  /// throws). A cancelled consumer gets nil at its next `next()`, even if
  /// the upstream ignores cancellation. After it has returned nil or
  /// thrown, `next()` returns nil forever. Holds nothing.
  @inlinable
  public func `catch`<Fallback: AsyncSequence>(
    _ handler: @escaping @Sendable (Failure) -> Fallback
  ) -> AsyncCatchSequence<Self, Fallback> where Fallback.Element == Element {
    AsyncCatchSequence(base: self, handler: handler)
  }

  /// Ends with `element` instead of throwing, if `self` throws: Rx's
  /// `catchAndReturn`. The contract of ``catch(_:)`` with a one-element
  /// fallback: the sequence never throws.
  @inlinable
  public func catchAndReturn(_ element: Element) -> AsyncCatchSequence<Self, CatchAndReturnElement<Element>>
  where Element: Sendable {
    AsyncCatchSequence(base: self, handler: { _ in CatchAndReturnElement(element: element) })
  }
}

/// The one element `AsyncSequence/catchAndReturn(_:)` ends with.
public struct CatchAndReturnElement<Element: Sendable>: AsyncSequence, Sendable {
  /// The type of error iteration can throw: none.
  public typealias Failure = Never
  @usableFromInline let element: Element

  @inlinable init(element: Element) { self.element = element }

  /// Makes this sequence's iterator: the element, then the end.
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(element: element) }

  /// The iterator: the element once, then nil.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var element: Element?

    @inlinable init(element: Element) { self.element = element }

    /// The element, then nil forever.
    @inlinable public mutating func next() async -> Element? {
      defer { element = nil }
      return element
    }
  }
}

/// The sequence returned by `AsyncSequence/catch(_:)`.
public struct AsyncCatchSequence<Base: AsyncSequence, Fallback: AsyncSequence>: AsyncSequence
where Fallback.Element == Base.Element {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw: the fallback's.
  public typealias Failure = Fallback.Failure

  @usableFromInline let base: Base
  @usableFromInline let handler: @Sendable (Base.Failure) -> Fallback

  @inlinable init(base: Base, handler: @escaping @Sendable (Base.Failure) -> Fallback) {
    self.base = base
    self.handler = handler
  }

  /// Makes this sequence's iterator (see `AsyncSequence/catch(_:)`).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), handler: handler) }

  /// The iterator: one consumer at a time; the contract is the operator's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline enum Phase {
      case base(Base.AsyncIterator)
      case fallback(Fallback.AsyncIterator)
      case done
    }

    @usableFromInline var phase: Phase
    @usableFromInline let handler: @Sendable (Base.Failure) -> Fallback

    @inlinable init(base: Base.AsyncIterator, handler: @escaping @Sendable (Base.Failure) -> Fallback) {
      phase = .base(base)
      self.handler = handler
    }

    /// The next element, or nil once the sequence has ended.
    @inlinable
    public mutating func next() async throws(Fallback.Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Fallback.Failure) -> Element? {
      while true {
        if Task.isCancelled { phase = .done }
        switch phase {
        case .done:
          return nil
        case .base(var iterator):
          do {
            let element = try await iterator.next(isolation: actor)
            if let element, !Task.isCancelled {
              phase = .base(iterator)
              return element
            }
            phase = .done
            return nil
          } catch {
            phase = .fallback(handler(error).makeAsyncIterator())
          }
        case .fallback(var iterator):
          do {
            let element = try await iterator.next(isolation: actor)
            if let element, !Task.isCancelled {
              phase = .fallback(iterator)
              return element
            }
            phase = .done
            return nil
          } catch {
            phase = .done
            throw error
          }
        }
      }
    }
  }
}

extension AsyncCatchSequence: Sendable where Base: Sendable {}
