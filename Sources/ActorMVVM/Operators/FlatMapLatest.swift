extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Maps each element to a sequence and emits the elements of the most
  /// recent one only: Rx's `flatMapLatest` (switch-to-latest).
  ///
  /// - **Emits** the elements of the inner sequence made from the latest
  ///   outer element. A new outer element cancels the previous inner
  ///   sequence; anything it produced that was not yet consumed is dropped
  ///   (results carry a generation, so stale ones never surface).
  /// - **Finishes** when the outer sequence has finished and the current
  ///   inner sequence (if any) has finished.
  /// - **Errors:** the first error from the outer or the current inner
  ///   sequence is thrown; errors from superseded inners are dropped.
  /// - **Cancellation:** cancelling the consumer, or dropping the iterator,
  ///   cancels the outer and inner tasks.
  /// - **Buffering:** outer and inner run in their own tasks, up to 128
  ///   elements ahead of the consumer.
  @inlinable
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlatMapLatestSequence(base: self, transform: transform)
  }
}

/// The sequence returned by `flatMapLatest(_:)`.
public struct AsyncFlatMapLatestSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Inner.Element: Sendable, Inner.Failure == Base.Failure {
  public typealias Element = Inner.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Inner

  @inlinable init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
    self.base = base
    self.transform = transform
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, transform: transform) }

  @usableFromInline
  enum Event: Sendable {
    case outer(Base.Element)
    case outerEnded((any Error)?)
    case inner(Inner.Element, generation: UInt64)
    case innerEnded((any Error)?, generation: UInt64)
  }

  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = Inner.Element
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let transform: @Sendable (Base.Element) -> Inner
    @usableFromInline var reader: ChannelReader<Event>?
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var innerTask: UInt64?
    @usableFromInline var innerActive = false
    @usableFromInline var outerEnded = false

    @inlinable
    init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
      self.base = base
      self.transform = transform
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if reader == nil {
        let reader = ChannelReader<Event>()
        let base = self.base
        reader.channel.spawn { await pump(base, into: $0, wrap: Event.outer, end: Event.outerEnded) }
        self.reader = reader
      }
      while let event = await reader!.next() {
        switch event {
        case .outer(let element):
          switchInner(to: transform(element))
        case .inner(let element, let generation):
          if generation == self.generation { return element }
        case .innerEnded(let error, let generation):
          guard generation == self.generation else { continue }
          if let error { return try finish(throwing: error) }
          innerActive = false
          if outerEnded { return try finish(throwing: nil) }
        case .outerEnded(let error):
          if let error { return try finish(throwing: error) }
          outerEnded = true
          if !innerActive { return try finish(throwing: nil) }
        }
      }
      return nil
    }

    @inlinable
    mutating func switchInner(to inner: Inner) {
      generation &+= 1
      if let innerTask { reader!.channel.cancelTask(innerTask) }
      let generation = self.generation
      innerActive = true
      innerTask = reader!.channel.spawn { channel in
        await pump(
          inner, into: channel,
          wrap: { .inner($0, generation: generation) },
          end: { .innerEnded($0, generation: generation) })
      }
    }

    @inlinable
    func finish(throwing error: (any Error)?) throws(Failure) -> Element? {
      reader?.channel.terminate()
      // Only the upstreams throw into the channel, and they throw `Failure`.
      if let error { throw error as! Failure }
      return nil
    }
  }
}
