import ActorMVVM

/// Pairs the elements of two sequences by position: Rx's `zip`.
///
/// - **Emits** `(a[n], b[n])` as soon as both n-th elements have arrived.
/// - **Finishes**, as Rx's two-way `zip`, when both upstreams have
///   finished — not when one has and its elements are paired (a zip of a
///   never-ending and an empty sequence never ends, as in Rx).
/// - **Errors:** the first error from either upstream is thrown at once.
/// - **Cancellation:** cancelling the consuming task ends the sequence at
///   its next `next()`; that, or dropping the iterator, cancels both
///   upstream tasks.
/// - **After the end:** once it has returned nil or thrown, `next()`
///   returns nil forever.
/// - **Buffering:** elements of the faster upstream wait for their partner
///   without bound, as in Rx; at most 128 pairs wait for the consumer
///   before the upstreams stop being pulled.
/// - **With an ``AsyncJust``** (Rx's `just`) on either side: one pair, its
///   element with the other's first; the other's later elements, which
///   can never be paired, are pulled and dropped (not queued) until its
///   end ends the zip. The consumer pulls it in its own task: no task,
///   lock or queue.
@inlinable
public func zip<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(
  _ a: A, _ b: B
) -> AsyncZip2Sequence<A, B> where A.Element: Sendable, B.Element: Sendable, A.Failure == B.Failure {
  AsyncZip2Sequence(a: a, b: b)
}

/// The sequence returned by ``zip(_:_:)``.
public struct AsyncZip2Sequence<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>: AsyncSequence, Sendable
where A.Element: Sendable, B.Element: Sendable, A.Failure == B.Failure {
  /// The type of the elements.
  public typealias Element = (A.Element, B.Element)
  /// The type of error iteration can throw.
  public typealias Failure = A.Failure
  @usableFromInline typealias Machine = ZipStateMachine<A.Element, B.Element>

  @usableFromInline let a: A
  @usableFromInline let b: B

  @inlinable init(a: A, b: B) {
    self.a = a
    self.b = b
  }

  /// Makes this sequence's iterator (see the type's contract for when work
  /// starts). With one upstream an ``AsyncJust`` and the other not, the
  /// iterator passes through: the one pair is the just's element with the
  /// other's first; the other's later elements can never be paired, so
  /// they are pulled and dropped (the machine would queue them without
  /// bound) until its end, which ends the operator as the machine would.
  /// The consumer pulls the other upstream in place, with no task, lock or
  /// queue. The casts fold when specialised.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    var iterator = Iterator(a: a, b: b)
    switch (just(a), just(b)) {
    case (let first?, nil):
      iterator.singleA = first
      iterator.liveB = b.makeAsyncIterator()
      iterator.route = .passB
    case (nil, let second?):
      iterator.singleB = second
      iterator.liveA = a.makeAsyncIterator()
      iterator.route = .passA
    default: break
    }
    return iterator
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = (A.Element, B.Element)
    /// The type of error iteration can throw.
    public typealias Failure = A.Failure

    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline var reader = OperatorReader<Machine>()
    /// How this iterator works, decided by `makeAsyncIterator()`.
    @usableFromInline var route = Route.zipping
    /// Passing through: the just's element, until paired.
    @usableFromInline var singleA: A.Element?
    @usableFromInline var singleB: B.Element?
    @usableFromInline var liveA: A.AsyncIterator?
    @usableFromInline var liveB: B.AsyncIterator?

    /// Zipping through the machine, passing one upstream through, or over.
    @usableFromInline
    enum Route: Sendable { case zipping, passA, passB, ended }

    @inlinable init(a: A, b: B) {
      self.a = a
      self.b = b
    }

    /// Whether this iterator passes one upstream through (for tests).
    package var isPassingThrough: Bool { route == .passA || route == .passB }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      switch route {
      case .passA, .passB: return try await passNext(isolation: actor)
      case .ended: return nil
      case .zipping: break
      }
      if reader.isStarted { return try await reader.next(failure: Failure.self, isolation: actor) }
      return try await reader.next(
        a, wrap: { .a($0) }, end: { .ended(.a, $0) }, b, wrap: { .b($0) }, end: { .ended(.b, $0) }, make: { Machine() },
        isolation: actor)
    }

    /// Passing through: the live upstream's first element paired with the
    /// just's; then its later elements dropped until it ends, which ends
    /// the operator; an error is thrown (then nil forever); a cancelled
    /// consumer gets nil at its next call.
    @inlinable
    mutating func passNext(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let live = route
      route = .ended  // until the live upstream has ended: an error or the end leaves it so
      while !Task.isCancelled {
        if live == .passA {
          guard let element = try await liveA!.next(isolation: actor) else { return nil }
          if let single = singleB {
            singleB = nil
            route = live
            return (element, single)
          }
        } else {
          guard let element = try await liveB!.next(isolation: actor) else { return nil }
          if let single = singleA {
            singleA = nil
            route = live
            return (single, element)
          }
        }
      }
      return nil
    }
  }
}

/// zip's decisions (STYLE §3): two queues of unpaired elements.
@usableFromInline
struct ZipStateMachine<A: Sendable, B: Sendable>: OperatorStateMachine {
  @usableFromInline enum Side: Sendable { case a, b }

  @usableFromInline
  enum Event: Sendable {
    case a(A)
    case b(B)
    case ended(Side, (any Error)?)
  }
  @usableFromInline typealias Command = Never

  @usableFromInline var queueA: [A] = []
  @usableFromInline var queueB: [B] = []
  @usableFromInline var indexA = 0
  @usableFromInline var indexB = 0
  @usableFromInline var finishedA = false
  @usableFromInline var finishedB = false

  @inlinable init() {}

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<(A, B)>) -> Never? {
    switch event {
    case .a(let element):
      precondition(!finishedA, "ZipStateMachine: an element after the end of a, in \(self)")
      queueA.append(element)
    case .b(let element):
      precondition(!finishedB, "ZipStateMachine: an element after the end of b, in \(self)")
      queueB.append(element)
    case .ended(_, let error?):
      output.fail(error)
      return nil
    case .ended(.a, nil): finishedA = true
    case .ended(.b, nil): finishedB = true
    }
    while indexA < queueA.count, indexB < queueB.count {
      output.emit((queueA[indexA], queueB[indexB]))
      indexA += 1
      indexB += 1
    }
    compact()
    // As Rx's ZipSink: over once both sides are.
    if finishedA && finishedB { output.finish() }
    return nil
  }

  /// Drops paired elements once they are half of a queue.
  @inlinable
  mutating func compact() {
    if indexA > 32, indexA * 2 > queueA.count {
      queueA.removeFirst(indexA)
      indexA = 0
    }
    if indexB > 32, indexB * 2 > queueB.count {
      queueB.removeFirst(indexB)
      indexB = 0
    }
  }
}
