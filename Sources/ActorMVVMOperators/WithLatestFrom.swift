import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Pairs each element with the latest element of `other`: Rx's
  /// `withLatestFrom`, e.g. `loginTaps.withLatestFrom(combineLatest(ids, passwords))`.
  ///
  /// - **Emits** `(element, latestOther)` for each element of `self` that
  ///   arrives after `other` has produced; earlier elements are dropped.
  /// - **Start:** like Rx, which subscribes to `other` first, a `other`
  ///   that has a current element (a `ReplayingAsyncSequence`: a
  ///   `StateRelay`'s `StateRelay/values`, or ``combineLatest(_:_:)`` of
  ///   them) supplies it before any element of `self` is handled, so no
  ///   early element is dropped for want of it. Any other `other` is
  ///   iterated in its own task, and elements of `self` that arrive before
  ///   its first element are dropped.
  /// - **Finishes** when `self` finishes (`other` finishing only freezes its
  ///   latest element).
  /// - **Errors:** the first error from either sequence is thrown.
  /// - **Cancellation / after the end / buffering:** as
  ///   ``combineLatest(_:_:)``.
  @inlinable
  public func withLatestFrom<Other: AsyncSequence & Sendable>(
    _ other: Other
  ) -> AsyncWithLatestFromSequence<Self, Other> where Other.Element: Sendable, Other.Failure == Failure {
    AsyncWithLatestFromSequence(base: self, other: other)
  }
}

/// The sequence returned by `withLatestFrom(_:)`.
public struct AsyncWithLatestFromSequence<Base: AsyncSequence & Sendable, Other: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Other.Element: Sendable, Base.Failure == Other.Failure {
  /// The type of the elements.
  public typealias Element = (Base.Element, Other.Element)
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = WithLatestFromStateMachine<Base.Element, Other.Element>

  @usableFromInline let base: Base
  @usableFromInline let other: Other

  @inlinable init(base: Base, other: Other) {
    self.base = base
    self.other = other
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, other: other) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = (Base.Element, Other.Element)
    /// The type of error iteration can throw.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let other: Other
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable
    init(base: Base, other: Other) {
      self.base = base
      self.other = other
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let (base, other) = (self.base, self.other)
      return try await reader.next(
        start: {
          let seed = (other as? any ReplayingAsyncSequence).flatMap { Self.current(of: $0) }
          let core = OperatorCore(Machine(latest: seed))
          core.spawn { core in
            await pump(other, into: core, wrap: { .other($0) }, end: { .otherEnded($0) }, perform: { _, _ in })
          }
          core.spawn { core in
            await pump(base, into: core, wrap: { .base($0) }, end: { .baseEnded($0) }, perform: { _, _ in })
          }
          return core
        }, failure: Failure.self, isolation: actor)
    }

    @inlinable
    static func current<Replaying: ReplayingAsyncSequence>(of other: Replaying) -> Other.Element? {
      other.currentElement as? Other.Element
    }
  }
}

/// withLatestFrom's decisions (STYLE §3), after RxSwift's `WithLatestFrom`.
@usableFromInline
struct WithLatestFromStateMachine<Base: Sendable, Other: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Event: Sendable {
    case base(Base)
    case other(Other)
    case baseEnded((any Error)?)
    case otherEnded((any Error)?)
  }

  @usableFromInline typealias Command = Never

  @usableFromInline var latest: Other?

  @inlinable init(latest: Other?) { self.latest = latest }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<(Base, Other)>) -> Never? {
    switch event {
    case .base(let element):
      if let latest { output.emit((element, latest)) }
    case .other(let element):
      latest = element
    case .otherEnded(nil):
      break  // its latest element stays
    case .baseEnded(nil):
      output.finish()
    case .baseEnded(let error?), .otherEnded(let error?):
      output.fail(error)
    }
    return nil
  }
}
