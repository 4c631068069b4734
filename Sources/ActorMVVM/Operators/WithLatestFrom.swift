extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Pairs each element with the latest element of `other`: Rx's
  /// `withLatestFrom`, e.g. `loginTaps.withLatestFrom(combineLatest(ids, passwords))`.
  ///
  /// - **Emits** `(element, latestOther)` for each element of `self` that
  ///   arrives after `other` has produced; earlier elements are dropped.
  /// - **Finishes** when `self` finishes (`other` finishing only freezes its
  ///   latest element).
  /// - **Errors:** the first error from either sequence is thrown.
  /// - **Cancellation / buffering:** as ``combineLatest(_:_:)``: both run in
  ///   their own tasks, up to 128 elements ahead, cancelled when the consumer
  ///   is cancelled or drops the iterator.
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
  public typealias Element = (Base.Element, Other.Element)
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let other: Other

  @inlinable init(base: Base, other: Other) {
    self.base = base
    self.other = other
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, other: other) }

  @usableFromInline
  enum Event: Sendable {
    case base(Base.Element)
    case other(Other.Element)
    case baseEnded((any Error)?)
    case otherEnded((any Error)?)
  }

  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = (Base.Element, Other.Element)
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let other: Other
    @usableFromInline var reader: ChannelReader<Event>?
    @usableFromInline var latest: Other.Element?

    @inlinable
    init(base: Base, other: Other) {
      self.base = base
      self.other = other
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if reader == nil {
        let reader = ChannelReader<Event>()
        let (base, other) = (self.base, self.other)
        reader.channel.spawn { await pump(base, into: $0, wrap: Event.base, end: Event.baseEnded) }
        reader.channel.spawn { await pump(other, into: $0, wrap: Event.other, end: Event.otherEnded) }
        self.reader = reader
      }
      while let event = await reader!.next() {
        switch event {
        case .base(let element):
          if let latest { return (element, latest) }
        case .other(let element):
          latest = element
        case .otherEnded(nil):
          continue
        case .baseEnded(let error), .otherEnded(let error):
          reader?.channel.terminate()
          // Only the upstreams throw into the channel, and they throw `Failure`.
          if let error { throw error as! Failure }
          return nil
        }
      }
      return nil
    }
  }
}
