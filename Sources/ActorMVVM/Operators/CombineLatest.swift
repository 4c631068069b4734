/// Combines the latest elements of two sequences: Rx's `combineLatest`.
///
/// - **Emits** a pair each time either upstream produces an element, once
///   both have produced one; the pair holds each side's latest element.
/// - **Finishes** when both upstreams have finished, or as soon as one
///   finishes without ever having produced an element (no pair can follow).
/// - **Errors:** the first error from either upstream is thrown; the other
///   upstream is cancelled.
/// - **Cancellation:** cancelling the consuming task, or dropping the
///   iterator, cancels both upstream tasks.
/// - **Buffering:** upstreams run in their own tasks, a shared buffer of up
///   to 128 elements ahead of the consumer; every element is combined, none
///   is skipped. Upstreams start on the first `next()`.
@inlinable
public func combineLatest<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(
  _ a: A, _ b: B
) -> AsyncCombineLatest2Sequence<A, B> where A.Element: Sendable, B.Element: Sendable, A.Failure == B.Failure {
  AsyncCombineLatest2Sequence(a: a, b: b)
}

/// `combineLatest` of three sequences, with the contract of the two-sequence
/// form: emits once all three have produced, finishes when all finished or
/// one finished empty, throws the first error.
public func combineLatest<
  A: AsyncSequence & Sendable, B: AsyncSequence & Sendable, C: AsyncSequence & Sendable
>(
  _ a: A, _ b: B, _ c: C
) -> some AsyncSequence<(A.Element, B.Element, C.Element), A.Failure> & Sendable
where
  A.Element: Sendable, B.Element: Sendable, C.Element: Sendable,
  A.Failure == B.Failure, B.Failure == C.Failure
{
  combineLatest(combineLatest(a, b), c).map { pair, c in (pair.0, pair.1, c) }
}

/// The sequence returned by ``combineLatest(_:_:)``.
public struct AsyncCombineLatest2Sequence<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>: AsyncSequence,
  Sendable
where A.Element: Sendable, B.Element: Sendable, A.Failure == B.Failure {
  public typealias Element = (A.Element, B.Element)
  public typealias Failure = A.Failure

  @usableFromInline let a: A
  @usableFromInline let b: B

  @inlinable init(a: A, b: B) {
    self.a = a
    self.b = b
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(a: a, b: b) }

  @usableFromInline
  enum Event: Sendable {
    case a(A.Element)
    case b(B.Element)
    case end(side: Int, error: (any Error)?)
  }

  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = (A.Element, B.Element)
    public typealias Failure = A.Failure

    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline var reader: ChannelReader<Event>?
    @usableFromInline var latestA: A.Element?
    @usableFromInline var latestB: B.Element?
    @usableFromInline var finished = (false, false)

    @inlinable init(a: A, b: B) {
      self.a = a
      self.b = b
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if reader == nil {
        let reader = ChannelReader<Event>()
        let (a, b) = (self.a, self.b)
        reader.channel.spawn { await pump(a, into: $0, wrap: Event.a, end: { .end(side: 0, error: $0) }) }
        reader.channel.spawn { await pump(b, into: $0, wrap: Event.b, end: { .end(side: 1, error: $0) }) }
        self.reader = reader
      }
      while let event = await reader!.next() {
        switch event {
        case .a(let element):
          latestA = element
          if let latestB { return (element, latestB) }
        case .b(let element):
          latestB = element
          if let latestA { return (latestA, element) }
        case .end(let side, let error):
          if let error { return try finish(throwing: error) }
          if side == 0 { finished.0 = true } else { finished.1 = true }
          let empty = side == 0 ? latestA == nil : latestB == nil
          if empty || (finished.0 && finished.1) { return try finish(throwing: nil) }
        }
      }
      return nil
    }

    @inlinable
    mutating func finish(throwing error: (any Error)?) throws(Failure) -> Element? {
      reader?.channel.terminate()
      // Only the upstreams throw into the channel, and they throw `Failure`.
      if let error { throw error as! Failure }
      return nil
    }
  }
}
