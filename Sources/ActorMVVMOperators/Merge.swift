import ActorMVVM

/// Interleaves the elements of two sequences as they arrive: Rx's `merge`.
///
/// - **Emits** every element of both upstreams, in the order they reach the
///   operator; each upstream's own order is kept.
/// - **Finishes** when both upstreams have finished.
/// - **Errors:** the first error from either upstream is thrown at once;
///   the other upstream is cancelled.
/// - **Cancellation:** cancelling the consuming task ends the sequence at
///   its next `next()`; that, or dropping the iterator, cancels both
///   upstream tasks.
/// - **After the end:** once it has returned nil or thrown, `next()`
///   returns nil forever.
/// - **Buffering:** each upstream is pulled by its own task, started on the
///   first `next()`; at most 128 elements wait for the consumer before
///   they stop being pulled.
/// - **With an ``AsyncJust``** (Rx's `just`) on either side: its element
///   first, then the other upstream, pulled by the consumer in its own task
///   with no task, lock or buffer (a `map`-like pass-through) — except that
///   a first upstream that replays (a `ReplayingAsyncSequence` with a
///   current element, a `StateRelay`'s values) gives its current element
///   before the just's, as Rx subscribes in argument order and a
///   `BehaviorRelay` emits inside `subscribe`. A cancelled consumer gets
///   nil, never a late element, once the pull it is in (or the one its next
///   call makes) has answered: an in-place pull cannot be abandoned, and
///   ActorMVVM's relays answer a cancellation at once.
/// - **Two upstreams that both replay** are pulled by two tasks, and which
///   current element comes first is not defined (Rx: the first's).
/// - **Replaying:** a merge is a `ReplayingAsyncSequence` whose elements
///   at start are `a`'s, then `b`'s (a replaying upstream's, a just's): a
///   merge inside another keeps Rx's order, `merge(merge(relay, just(1)),
///   just(2))` giving the relay's value, 1, 2.
@inlinable
public func merge<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(
  _ a: A, _ b: B
) -> AsyncMerge2Sequence<A, B> where A.Element: Sendable, A.Element == B.Element, A.Failure == B.Failure {
  AsyncMerge2Sequence(a: a, b: b)
}

/// The sequence returned by ``merge(_:_:)``.
public struct AsyncMerge2Sequence<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>: AsyncSequence, Sendable
where A.Element: Sendable, A.Element == B.Element, A.Failure == B.Failure {
  /// The type of the elements.
  public typealias Element = A.Element
  /// The type of error iteration can throw.
  public typealias Failure = A.Failure
  @usableFromInline typealias Machine = MergeStateMachine<A.Element>

  @usableFromInline let a: A
  @usableFromInline let b: B

  @inlinable init(a: A, b: B) {
    self.a = a
    self.b = b
  }

  /// Makes this sequence's iterator (see the type's contract for when work
  /// starts). With one upstream an ``AsyncJust`` and the other not, the
  /// iterator passes through: the just's element first (as the operator
  /// delivers an immediate upstream's elements before any other's; after a
  /// replaying first upstream's current element), then the other upstream
  /// pulled in place by the consumer, with no task, lock or machine per
  /// element. The casts fold when specialised.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    var iterator = Iterator(a: a, b: b)
    switch (just(a), just(b)) {
    case (let first?, nil):
      iterator.pending = first
      iterator.liveB = b.makeAsyncIterator()
      iterator.route = .passB
    case (nil, let second?):
      iterator.pending = second
      iterator.liveA = a.makeAsyncIterator()
      iterator.route = .passA
      // Rx subscribes to `a` first: a replaying `a` emits its elements then.
      iterator.liveFirst = replaysNow(a) ? startElements(of: a).count : 0
    default: break
    }
    return iterator
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = A.Element
    /// The type of error iteration can throw.
    public typealias Failure = A.Failure

    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline var reader = OperatorReader<Machine>()
    /// How this iterator works, decided by `makeAsyncIterator()`.
    @usableFromInline var route = Route.merging
    /// Passing through: the just's element, until emitted.
    @usableFromInline var pending: Element?
    @usableFromInline var liveA: A.AsyncIterator?
    @usableFromInline var liveB: B.AsyncIterator?
    /// Passing `a` through when `a` replays: how many of its elements
    /// still come before the just's (those it begins with).
    @usableFromInline var liveFirst = 0

    /// Merging through the machine, passing one upstream through, or over.
    @usableFromInline
    enum Route: Sendable { case merging, passA, passB, ended }

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
      case .merging: break
      }
      if reader.isStarted { return try await reader.next(failure: Failure.self, isolation: actor) }
      return try await reader.next(
        a, wrap: { .element($0) }, end: { .ended($0) }, b, wrap: { .element($0) }, end: { .ended($0) },
        make: { Machine() },
        isolation: actor)
    }

    /// Passing through: the just's element, then the live upstream's, as
    /// the merge would emit them; its end or error ends the operator (after
    /// an error, nil forever); a cancelled consumer gets nil at its next call
    /// (once that call's pull has answered).
    @inlinable
    mutating func passNext(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let live = route
      route = .ended  // until the live upstream has answered: an error or the end leaves it so
      if liveFirst > 0 { return try await replayedFirst(isolation: actor) }
      if let element = pending {
        guard !Task.isCancelled else { return nil }
        pending = nil
        route = live
        return element
      }
      // One cancellation check per pull, after it: a consumer cancelled
      // before or while it waited gets nil (and nil forever), never a late
      // answer. (A second check, before the pull, would cost more than a
      // relay's whole pull.)
      guard
        let element = live == .passA
          ? try await liveA!.next(isolation: actor) : try await liveB!.next(isolation: actor),
        !Task.isCancelled
      else { return nil }
      route = live
      return element
    }

    /// Passing a replaying `a` through: the elements it begins with, then
    /// the just's; if `a` ended first, the just's, then the end.
    @inlinable @inline(never)
    mutating func replayedFirst(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      liveFirst -= 1
      guard !Task.isCancelled else { return nil }
      let first = try await liveA!.next(isolation: actor)
      guard !Task.isCancelled else { return nil }
      guard let first else {
        liveFirst = 0
        defer { pending = nil }
        return pending
      }
      route = .passA
      return first
    }
  }
}

/// merge's decisions (STYLE §3): pass every element on; end when both
/// upstreams have.
@usableFromInline
struct MergeStateMachine<Element: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Event: Sendable {
    case element(Element)
    case ended((any Error)?)
  }
  @usableFromInline typealias Command = Never

  @usableFromInline var running = 2

  @inlinable init() {}

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Never? {
    switch event {
    case .element(let element):
      precondition(running > 0, "MergeStateMachine: an element after both upstreams ended, in \(self)")
      output.emit(element)
    case .ended(let error?):
      output.fail(error)
    case .ended(nil):
      running -= 1
      if running == 0 { output.finish() }
    }
    return nil
  }
}

extension AsyncMerge2Sequence: ReplayingAsyncSequence {
  /// The first of ``elementsAtStart``.
  @inlinable public var currentElement: Element? { elementsAtStart.first }

  /// What Rx's `merge` emits inside `subscribe`: `a`'s elements at start,
  /// then `b`'s (each a replaying sequence's or a just's). When neither is
  /// a just, the two are pumped by tasks and their order between them is
  /// not defined; this lists them in Rx's.
  @inlinable public var elementsAtStart: [Element] { startElements(of: a) + startElements(of: b) }
}
