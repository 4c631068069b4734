import ActorMVVM

/// Combines the latest elements of two sequences: Rx's `combineLatest`.
///
/// - **Emits** a pair each time either upstream produces an element, once
///   both have produced one; the pair holds each side's latest element.
///   Elements are combined in the order they reach the operator. The two
///   upstreams are pulled by independent tasks, so when both have elements
///   ready at once their interleaving (and so the intermediate pairs) is
///   not fixed, where Rx's would follow emission times; the last pair is
///   always the two last elements. A conflating upstream (a
///   `StateRelay/Values`) skips intermediate values by its own contract.
/// - **Finishes** when both upstreams have finished; or, as in Rx, when an
///   element arrives while the other side has finished without producing
///   (no pair can follow).
/// - **Errors:** the first error from either upstream is thrown; the other
///   upstream is cancelled.
/// - **Cancellation:** cancelling the consuming task ends the sequence at
///   its next `next()`; that, or dropping the iterator, cancels both
///   upstream tasks.
/// - **After the end:** once it has returned nil or thrown, `next()`
///   returns nil forever.
/// - **Buffering:** every element is combined, none is skipped; at most
///   128 pairs wait for the consumer before the upstreams stop being
///   pulled. Upstreams start on the first `next()`.
/// - **Immediate upstreams:** an ``ImmediateAsyncSequence`` (``AsyncJust``)
///   is taken when the operator starts, with no task; the other upstream is
///   then pulled by the consumer itself (see ``ImmediateAsyncSequence``).
@inlinable
public func combineLatest<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(
  _ a: A, _ b: B
) -> AsyncCombineLatest2Sequence<A, B> where A.Element: Sendable, B.Element: Sendable, A.Failure == B.Failure {
  AsyncCombineLatest2Sequence(a: a, b: b)
}

/// `combineLatest` of three sequences, with the contract of the two-sequence
/// form over three: it finishes when all three have finished, or when an
/// element arrives before all three have produced one and the other two
/// have finished — Rx's three-way rule, not that of two nested pairs.
@inlinable
public func combineLatest<
  A: AsyncSequence & Sendable, B: AsyncSequence & Sendable, C: AsyncSequence & Sendable
>(
  _ a: A, _ b: B, _ c: C
) -> some ChainableAsyncSequence<(A.Element, B.Element, C.Element), A.Failure> & Sendable
where
  A.Element: Sendable, B.Element: Sendable, C.Element: Sendable,
  A.Failure == B.Failure, B.Failure == C.Failure
{
  AsyncCombineLatest3Sequence(a: a, b: b, c: c)
}

/// `combineLatest` of four sequences, with the contract of the three-sequence
/// form over four (Rx's four-way rule). One machine and four upstream tasks,
/// however the result is nested: RxSwift's benchmark nests seven of these.
/// When three upstreams are ``ImmediateAsyncSequence``s of one element each
/// (``AsyncJust``), the rule reduces to a `map` over the fourth, and the
/// operator is one: the consumer pulls the fourth directly, with no task,
/// lock or combine state per element (7 nested levels: 1,362 instructions
/// per event, against 24,672 through the machine; 59,181 to create such a
/// chain, against 239,335).
@inlinable
public func combineLatest<
  A: AsyncSequence & Sendable, B: AsyncSequence & Sendable, C: AsyncSequence & Sendable, D: AsyncSequence & Sendable
>(
  _ a: A, _ b: B, _ c: C, _ d: D
) -> some ChainableAsyncSequence<(A.Element, B.Element, C.Element, D.Element), A.Failure> & Sendable
where
  A.Element: Sendable, B.Element: Sendable, C.Element: Sendable, D.Element: Sendable,
  A.Failure == B.Failure, B.Failure == C.Failure, C.Failure == D.Failure
{
  AsyncCombineLatest4Sequence(a: a, b: b, c: c, d: d)
}

/// The sequence returned by ``combineLatest(_:_:)``.
public struct AsyncCombineLatest2Sequence<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>: AsyncSequence,
  Sendable
where A.Element: Sendable, B.Element: Sendable, A.Failure == B.Failure {
  /// The type of the elements.
  public typealias Element = (A.Element, B.Element)
  /// The type of error iteration can throw.
  public typealias Failure = A.Failure
  @usableFromInline typealias Machine = CombineLatestStateMachine<A.Element, B.Element>

  @usableFromInline let a: A
  @usableFromInline let b: B

  @inlinable init(a: A, b: B) {
    self.a = a
    self.b = b
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(a: a, b: b) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = (A.Element, B.Element)
    /// The type of error iteration can throw.
    public typealias Failure = A.Failure

    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(a: A, b: B) {
      self.a = a
      self.b = b
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if reader.isStarted { return try await reader.next(failure: Failure.self, isolation: actor) }
      return try await reader.next(
        a, wrap: { .a($0) }, end: { .ended(.a, $0) }, b, wrap: { .b($0) }, end: { .ended(.b, $0) }, make: { Machine() },
        isolation: actor)
    }
  }
}

extension AsyncCombineLatest2Sequence: ReplayingAsyncSequence
where A: ReplayingAsyncSequence, B: ReplayingAsyncSequence {
  /// Both sides' current elements, when both have one.
  @inlinable
  public var currentElement: Element? {
    guard let a = a.currentElement, let b = b.currentElement else { return nil }
    return (a, b)
  }
}

/// combineLatest's decisions (STYLE §3), after RxSwift's `CombineLatest`.
@usableFromInline
struct CombineLatestStateMachine<A: Sendable, B: Sendable>: OperatorStateMachine {
  @usableFromInline enum Side: Sendable { case a, b }

  @usableFromInline
  enum Event: Sendable {
    case a(A)
    case b(B)
    case ended(Side, (any Error)?)
  }

  @usableFromInline typealias Command = Never

  @usableFromInline var latestA: A?
  @usableFromInline var latestB: B?
  @usableFromInline var finishedA = false
  @usableFromInline var finishedB = false

  @inlinable init() {}

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<(A, B)>) -> Never? {
    switch event {
    case .a(let element):
      precondition(!finishedA, "CombineLatestStateMachine: an element after the end of a, in \(self)")
      latestA = element
      if let latestB {
        output.emit((element, latestB))
      } else if finishedB {
        output.finish()  // b ended empty: no pair can ever follow
      }
    case .b(let element):
      precondition(!finishedB, "CombineLatestStateMachine: an element after the end of b, in \(self)")
      latestB = element
      if let latestA {
        output.emit((latestA, element))
      } else if finishedA {
        output.finish()
      }
    case .ended(_, let error?):
      output.fail(error)
    case .ended(let side, nil):
      if side == .a { finishedA = true } else { finishedB = true }
      if finishedA && finishedB { output.finish() }
    }
    return nil
  }
}
