import ActorMVVM

/// Combines the latest elements of any number of sequences: Rx's
/// `combineLatest` over a collection.
///
/// - **Emits** `[s0's latest, s1's latest, …]` each time an upstream
///   produces an element, once every upstream has produced one.
/// - **Finishes** when every upstream has finished; or, as Rx's, when an
///   element arrives before every upstream has produced one and all the
///   others have finished (no array can follow). An empty array of
///   sequences emits one empty array, then finishes (as RxSwift's
///   `testCombineLatest_emptyArrayN`: every upstream — none — has produced).
/// - **Errors:** the first error from any upstream is thrown at once; the
///   others are cancelled.
/// - **Cancellation:** cancelling the consuming task ends the sequence at
///   its next `next()`; that, or dropping the iterator, cancels every
///   upstream task.
/// - **After the end:** once it has returned nil or thrown, `next()`
///   returns nil forever.
/// - **Buffering:** one task per upstream, started on the first `next()`;
///   at most 128 arrays wait for the consumer before they stop being pulled.
@inlinable
public func combineLatest<S: AsyncSequence & Sendable>(_ sequences: [S]) -> AsyncCombineLatestCollectionSequence<S>
where S.Element: Sendable {
  AsyncArrayCollectionSequence(bases: sequences, kind: .combineLatest)
}

/// Pairs the elements of any number of sequences by position: Rx's `zip`
/// over a collection.
///
/// - **Emits** `[s0[n], s1[n], …]` as soon as every upstream's n-th element
///   has arrived.
/// - **Finishes** when every upstream has finished; or, as Rx's, when an
///   element arrives that cannot complete an array and all the others have
///   finished. An empty array finishes at once.
/// - **Errors**, **cancellation**, **after the end:** as
///   ``combineLatest(_:)-([S])``.
/// - **Buffering:** elements wait for their partners without bound, as in
///   Rx; at most 128 arrays wait for the consumer.
@inlinable
public func zip<S: AsyncSequence & Sendable>(_ sequences: [S]) -> AsyncZipCollectionSequence<S>
where S.Element: Sendable {
  AsyncArrayCollectionSequence(bases: sequences, kind: .zip)
}

/// Interleaves the elements of any number of sequences as they arrive: Rx's
/// `merge` over a collection.
///
/// - **Emits** every element of every upstream, in the order they reach the
///   operator; each upstream's own order is kept.
/// - **Finishes** when every upstream has finished (an empty array at once).
/// - **Errors**, **cancellation**, **after the end**, **buffering:** as
///   ``combineLatest(_:)-([S])``.
@inlinable
public func merge<S: AsyncSequence & Sendable>(_ sequences: [S]) -> AsyncMergeCollectionSequence<S>
where S.Element: Sendable {
  AsyncMergeCollectionSequence(bases: sequences)
}

/// The sequence returned by ``combineLatest(_:)-([S])``.
public typealias AsyncCombineLatestCollectionSequence<S: AsyncSequence & Sendable> = AsyncArrayCollectionSequence<S>
where S.Element: Sendable

/// The sequence returned by ``zip(_:)-([S])``.
public typealias AsyncZipCollectionSequence<S: AsyncSequence & Sendable> = AsyncArrayCollectionSequence<S>
where S.Element: Sendable

/// The sequence ``combineLatest(_:)-([S])`` and ``zip(_:)-([S])`` return:
/// arrays of one element per upstream, combined as the operator that made
/// it says (see each operator's contract).
public struct AsyncArrayCollectionSequence<S: AsyncSequence & Sendable>: AsyncSequence, Sendable
where S.Element: Sendable {
  /// The type of the elements.
  public typealias Element = [S.Element]
  /// The type of error iteration can throw.
  public typealias Failure = S.Failure
  @usableFromInline typealias Machine = CollectionStateMachine<S.Element, [S.Element]>
  @usableFromInline let bases: [S]
  @usableFromInline let kind: Machine.Kind

  @inlinable init(bases: [S], kind: Machine.Kind) {
    self.bases = bases
    self.kind = kind
  }

  /// Makes this sequence's iterator (see the operator's contract).
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(bases: bases, kind: kind) }

  /// The iterator: one consumer at a time; the contract is the operator's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let bases: [S]
    @usableFromInline let kind: Machine.Kind
    @usableFromInline var reader = OperatorReader<Machine>()
    /// combineLatest of no sequence: whether its one empty array is out.
    @usableFromInline var emittedEmpty = false

    @inlinable init(bases: [S], kind: Machine.Kind) {
      self.bases = bases
      self.kind = kind
    }

    /// The next element, or nil once the sequence has ended.
    @inlinable
    public mutating func next() async throws(S.Failure) -> [S.Element]? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(S.Failure) -> [S.Element]? {
      let kind = self.kind
      if kind == .combineLatest, bases.isEmpty, !emittedEmpty {
        emittedEmpty = true
        if !Task.isCancelled { return [] }
      }
      return try await reader.next(
        bases, make: { Machine(kind: kind, count: $0, emitValue: { _ in nil }, emitArray: { $0 }) },
        isolation: actor)
    }
  }
}

/// The sequence returned by ``merge(_:)-([S])``.
public struct AsyncMergeCollectionSequence<S: AsyncSequence & Sendable>: AsyncSequence, Sendable
where S.Element: Sendable {
  /// The type of the elements.
  public typealias Element = S.Element
  /// The type of error iteration can throw.
  public typealias Failure = S.Failure
  @usableFromInline let bases: [S]

  @inlinable init(bases: [S]) { self.bases = bases }

  /// Makes this sequence's iterator (see ``merge(_:)-([S])``).
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(bases: bases) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let bases: [S]
    @usableFromInline var reader = OperatorReader<CollectionStateMachine<S.Element, S.Element>>()

    @inlinable init(bases: [S]) { self.bases = bases }

    /// The next element, or nil once the sequence has ended.
    @inlinable
    public mutating func next() async throws(S.Failure) -> S.Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(S.Failure) -> S.Element? {
      try await reader.next(bases, make: { .merge(count: $0) }, isolation: actor)
    }
  }
}

/// The decisions of combineLatest, zip and merge over n upstreams (STYLE
/// §3), after RxSwift's `CombineLatestCollectionTypeSink`,
/// `ZipCollectionTypeSink` and `Merge`: events are an upstream's index and
/// its element or end.
@usableFromInline
struct CollectionStateMachine<Value: Sendable, Element: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Event: Sendable {
    case element(Int, Value)
    case ended(Int, (any Error)?)
  }
  @usableFromInline typealias Command = Never

  @usableFromInline enum Kind: Sendable { case combineLatest, zip, merge }

  @usableFromInline let kind: Kind
  @usableFromInline let emitValue: @Sendable (Value) -> Element?
  @usableFromInline let emitArray: @Sendable ([Value]) -> Element?
  /// combineLatest: each upstream's latest; zip: each upstream's queue.
  @usableFromInline var queues: [[Value]]
  @usableFromInline var done: [Bool]
  @usableFromInline var doneCount = 0
  /// Upstreams with at least one element (combineLatest) or a queued one (zip).
  @usableFromInline var ready = 0

  @inlinable
  init(
    kind: Kind, count: Int, emitValue: @escaping @Sendable (Value) -> Element?,
    emitArray: @escaping @Sendable ([Value]) -> Element?
  ) {
    self.kind = kind
    self.emitValue = emitValue
    self.emitArray = emitArray
    queues = Array(repeating: [], count: count)
    done = Array(repeating: false, count: count)
  }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Never? {
    switch event {
    case .ended(_, let error?):
      output.fail(error)
    case .ended(let index, nil):
      guard !done[index] else { return nil }
      done[index] = true
      doneCount += 1
      if doneCount == done.count { output.finish() }
    case .element(let index, let value):
      switch kind {
      case .merge:
        if let element = emitValue(value) { output.emit(element) }
      case .combineLatest:
        if queues[index].isEmpty { ready += 1 }
        queues[index] = [value]
        if ready == queues.count {
          if let element = emitArray(queues.map { $0[0] }) { output.emit(element) }
        } else if othersDone(index) {
          output.finish()
        }
      case .zip:
        queues[index].append(value)
        if queues[index].count == 1 { ready += 1 }
        if ready == queues.count {
          let values = queues.indices.map { queues[$0].removeFirst() }
          ready = queues.count(where: { !$0.isEmpty })
          if let element = emitArray(values) { output.emit(element) }
        } else if othersDone(index) {
          output.finish()
        }
      }
    }
    return nil
  }

  @inlinable
  func othersDone(_ index: Int) -> Bool {
    doneCount - (done[index] ? 1 : 0) == done.count - 1
  }
}

extension CollectionStateMachine where Element == Value {
  @inlinable static func merge(count: Int) -> Self {
    Self(kind: .merge, count: count, emitValue: { $0 }, emitArray: { _ in nil })
  }
}

extension OperatorReader {
  /// The next element of an operator over `bases`: on the first call,
  /// starts the machine `make(count)` builds and feeds it each upstream.
  /// With no upstream, the operator is over at once.
  @inlinable
  mutating func next<S: AsyncSequence & Sendable, Output: Sendable>(
    _ bases: [S], make: (Int) -> CollectionStateMachine<S.Element, Output>, isolation actor: isolated (any Actor)?
  ) async throws(S.Failure) -> Output?
  where S.Element: Sendable, Machine == CollectionStateMachine<S.Element, Output> {
    if bases.isEmpty { return end() }
    return try await next(
      starting: {
        let core = OperatorCore(make(bases.count))
        let upstreams = bases.enumerated().map { index, base in
          Upstream<Machine>(base, wrap: { .element(index, $0) }, end: { .ended(index, $0) })
        }
        return (core, core.start(upstreams))
      }, failure: S.Failure.self, isolation: actor)
  }
}

/// One of up to four element types: how `combineLatest(_:_:_:)` and
/// `combineLatest(_:_:_:_:)` run upstreams of different types through one
/// n-ary machine (the three-way form never makes `.d`).
@usableFromInline
enum OneOfFour<A: Sendable, B: Sendable, C: Sendable, D: Sendable>: Sendable {
  case a(A), b(B), c(C), d(D)
}

extension OperatorReader {
  /// The next element of `combineLatest` over three or four upstreams of
  /// different types: on the first call, starts the n-ary machine and feeds
  /// it its upstreams (``OperatorCore/start(_:)``; `d` is nil for three).
  @inlinable
  mutating func nextCombined<
    A: AsyncSequence & Sendable, B: AsyncSequence & Sendable, C: AsyncSequence & Sendable,
    D: AsyncSequence & Sendable, Output: Sendable
  >(
    _ a: A, _ b: B, _ c: C, _ d: D?,
    emit: @escaping @Sendable ([OneOfFour<A.Element, B.Element, C.Element, D.Element>]) -> Output?,
    isolation actor: isolated (any Actor)?
  ) async throws(A.Failure) -> Output?
  where
    A.Element: Sendable, B.Element: Sendable, C.Element: Sendable, D.Element: Sendable,
    A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure,
    Machine == CollectionStateMachine<OneOfFour<A.Element, B.Element, C.Element, D.Element>, Output>
  {
    try await next(
      starting: {
        let core = OperatorCore(
          Machine(kind: .combineLatest, count: d == nil ? 3 : 4, emitValue: { _ in nil }, emitArray: emit))
        var upstreams = [
          Upstream<Machine>(a, wrap: { .element(0, .a($0)) }, end: { .ended(0, $0) }),
          Upstream<Machine>(b, wrap: { .element(1, .b($0)) }, end: { .ended(1, $0) }),
          Upstream<Machine>(c, wrap: { .element(2, .c($0)) }, end: { .ended(2, $0) }),
        ]
        if let d { upstreams.append(Upstream<Machine>(d, wrap: { .element(3, .d($0)) }, end: { .ended(3, $0) })) }
        return (core, core.start(upstreams))
      }, failure: A.Failure.self, isolation: actor)
  }
}

/// The sequence `combineLatest(_:_:_:)` returns: the n-ary machine over
/// three upstreams, so it finishes as Rx's three-way `combineLatest` does
/// (not as two nested pairs would).
@usableFromInline
struct AsyncCombineLatest3Sequence<
  A: AsyncSequence & Sendable, B: AsyncSequence & Sendable, C: AsyncSequence & Sendable
>:
  AsyncSequence, Sendable
where
  A.Element: Sendable, B.Element: Sendable, C.Element: Sendable, A.Failure == B.Failure, A.Failure == C.Failure
{
  @usableFromInline typealias Element = (A.Element, B.Element, C.Element)
  @usableFromInline typealias Failure = A.Failure
  /// The fourth type is never used: `C` again, so no new type is made.
  @usableFromInline typealias Value = OneOfFour<A.Element, B.Element, C.Element, C.Element>
  @usableFromInline typealias Machine = CollectionStateMachine<Value, Element>

  @usableFromInline let a: A
  @usableFromInline let b: B
  @usableFromInline let c: C

  @inlinable init(a: A, b: B, c: C) {
    self.a = a
    self.b = b
    self.c = c
  }

  @inlinable func makeAsyncIterator() -> Iterator { Iterator(a: a, b: b, c: c) }

  @usableFromInline
  struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline let c: C
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(a: A, b: B, c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    @inlinable
    mutating func next() async throws(A.Failure) -> Element? { try await next(isolation: nil) }

    @inlinable
    mutating func next(isolation actor: isolated (any Actor)?) async throws(A.Failure) -> Element? {
      if reader.isStarted { return try await reader.next(failure: A.Failure.self, isolation: actor) }
      return try await reader.nextCombined(
        a, b, c, C?.none,
        emit: { values in
          guard case .a(let first) = values[0], case .b(let second) = values[1], case .c(let third) = values[2]
          else { return nil }
          return (first, second, third)
        }, isolation: actor)
    }
  }
}

/// The sequence `combineLatest(_:_:_:_:)` returns: the n-ary machine over
/// four upstreams, finishing as Rx's four-way `combineLatest` does.
@usableFromInline
struct AsyncCombineLatest4Sequence<
  A: AsyncSequence & Sendable, B: AsyncSequence & Sendable, C: AsyncSequence & Sendable, D: AsyncSequence & Sendable
>:
  AsyncSequence, Sendable
where
  A.Element: Sendable, B.Element: Sendable, C.Element: Sendable, D.Element: Sendable,
  A.Failure == B.Failure, A.Failure == C.Failure, A.Failure == D.Failure
{
  @usableFromInline typealias Element = (A.Element, B.Element, C.Element, D.Element)
  @usableFromInline typealias Failure = A.Failure
  @usableFromInline typealias Value = OneOfFour<A.Element, B.Element, C.Element, D.Element>
  @usableFromInline typealias Machine = CollectionStateMachine<Value, Element>

  @usableFromInline let a: A
  @usableFromInline let b: B
  @usableFromInline let c: C
  @usableFromInline let d: D

  @inlinable init(a: A, b: B, c: C, d: D) {
    self.a = a
    self.b = b
    self.c = c
    self.d = d
  }

  /// Decides how the iterator works before it exists: when three upstreams
  /// are immediate with one element each, it passes the fourth through (see
  /// ``Iterator/passNext(isolation:)``) and holds only the fourth's iterator,
  /// made here from the upstream stored in this sequence (a nested chain is
  /// never copied into the iterator: each level makes its own iterator in
  /// place); otherwise it keeps the four upstreams, in one box, for the
  /// combining path. No work starts here: making an upstream's iterator
  /// starts none in ActorMVVM's sequences.
  @inlinable func makeAsyncIterator() -> Iterator {
    // First the casts the specialiser folds (`AsyncJust` or not): when
    // they find three, the fourth is never cast to an existential, which
    // would copy it, and every level nested inside it, into a box.
    var singles = (just(a), just(b), just(c), just(d))
    let found = [singles.0 != nil, singles.1 != nil, singles.2 != nil, singles.3 != nil].count { $0 }
    if found < 3 { singles = (single(a), single(b), single(c), single(d)) }
    var iterator = Iterator(singles)
    // Three singles: pass the other through (if all four are, the fourth:
    // it emits the one tuple the combining path would, then ends).
    switch (singles.0 == nil, singles.1 == nil, singles.2 == nil, singles.3 == nil) {
    case (true, false, false, false):
      iterator.liveA = a.makeAsyncIterator()
      iterator.passThrough = .a
      iterator.liveAnswersCancellation = answersCancellation(a)
    case (false, true, false, false):
      iterator.liveB = b.makeAsyncIterator()
      iterator.passThrough = .b
      iterator.liveAnswersCancellation = answersCancellation(b)
    case (false, false, true, false):
      iterator.liveC = c.makeAsyncIterator()
      iterator.passThrough = .c
      iterator.liveAnswersCancellation = answersCancellation(c)
    case (false, false, false, _):
      iterator.liveD = d.makeAsyncIterator()
      iterator.passThrough = .d
      iterator.liveAnswersCancellation = answersCancellation(d)
    default:
      iterator.upstreams = Upstreams(a: a, b: b, c: c, d: d)
      iterator.passThrough = .no
    }
    return iterator
  }

  /// The four upstreams, kept only by an iterator that combines them.
  @usableFromInline
  final class Upstreams {
    @usableFromInline let a: A
    @usableFromInline let b: B
    @usableFromInline let c: C
    @usableFromInline let d: D

    @inlinable init(a: A, b: B, c: C, d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }
  }

  @usableFromInline
  struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var reader = OperatorReader<Machine>()
    /// How this iterator works, decided by `makeAsyncIterator()`: combining
    /// (`.no`), or a `map` over one upstream, whose iterator lives in its
    /// own stored property and is advanced in place (moving a nested chain's
    /// iterator in and out of an enum copied every level below it on every
    /// element).
    @usableFromInline var passThrough = PassThrough.no
    /// Passing through an upstream that answers a cancelled consumer with
    /// nil by itself (``AnswersCancellation``): the pass-through's own
    /// checks are skipped (a nested chain of pass-throughs over a relay
    /// then checks once, in the relay, instead of twice per level).
    @usableFromInline var liveAnswersCancellation = false
    /// The upstreams, for the combining path only (nil when passing through).
    @usableFromInline var upstreams: Upstreams?
    @usableFromInline let firstSingle: A.Element?
    @usableFromInline let secondSingle: B.Element?
    @usableFromInline let thirdSingle: C.Element?
    @usableFromInline let fourthSingle: D.Element?
    @usableFromInline var liveA: A.AsyncIterator?
    @usableFromInline var liveB: B.AsyncIterator?
    @usableFromInline var liveC: C.AsyncIterator?
    @usableFromInline var liveD: D.AsyncIterator?

    /// Whether, and over which upstream, the operator passes elements through.
    @usableFromInline
    enum PassThrough: Sendable { case no, a, b, c, d, ended }

    @inlinable init(_ singles: (A.Element?, B.Element?, C.Element?, D.Element?)) {
      (firstSingle, secondSingle, thirdSingle, fourthSingle) = singles
    }

    @inlinable
    mutating func next() async throws(A.Failure) -> Element? { try await next(isolation: nil) }

    @inlinable @inline(__always)
    mutating func next(isolation actor: isolated (any Actor)?) async throws(A.Failure) -> Element? {
      switch passThrough {
      case .a, .b, .c, .d: return try await passNext(isolation: actor)
      default: return try await combinedNext(isolation: actor)
      }
    }

    /// `next` while combining (or after the end).
    @inlinable
    mutating func combinedNext(isolation actor: isolated (any Actor)?) async throws(A.Failure) -> Element? {
      guard passThrough == .no, let upstreams else { return nil }
      if reader.isStarted { return try await reader.next(failure: A.Failure.self, isolation: actor) }
      return try await reader.nextCombined(
        upstreams.a, upstreams.b, upstreams.c, upstreams.d,
        emit: { values in
          guard case .a(let first) = values[0], case .b(let second) = values[1], case .c(let third) = values[2],
            case .d(let fourth) = values[3]
          else { return nil }
          return (first, second, third, fourth)
        }, isolation: actor)
    }

    /// The pass-through's next element: the live upstream's, with the three
    /// single elements (Rx's four-way rule reduces to this once three
    /// upstreams have produced their one element and ended), pulled by the
    /// consumer with no task, lock or combine state. An error from the live
    /// upstream ends it; so does the consuming task's cancellation, at the
    /// next `next()`; after the end, nil forever.
    @inlinable @inline(__always)
    mutating func passNext(isolation actor: isolated (any Actor)?) async throws(A.Failure) -> Element? {
      let live = passThrough
      passThrough = .ended  // until the live upstream has answered: an error or the end leaves it so
      let checks = !liveAnswersCancellation
      if checks, Task.isCancelled { return nil }  // the operator's cancellation contract
      let element: Element?
      switch live {
      case .a:
        element = try await liveA!.next(isolation: actor).map { ($0, secondSingle!, thirdSingle!, fourthSingle!) }
      case .b:
        element = try await liveB!.next(isolation: actor).map { (firstSingle!, $0, thirdSingle!, fourthSingle!) }
      case .c:
        element = try await liveC!.next(isolation: actor).map { (firstSingle!, secondSingle!, $0, fourthSingle!) }
      case .d:
        element = try await liveD!.next(isolation: actor).map { (firstSingle!, secondSingle!, thirdSingle!, $0) }
      case .no, .ended:
        return nil
      }
      // Cancelled while it waited: nil (and nil forever), not a late answer.
      if checks, Task.isCancelled { return nil }
      if element != nil { passThrough = live }
      return element
    }
  }
}

extension AsyncCombineLatest4Sequence: AnswersCancellation {}

/// A sequence whose iterator answers a cancelled consumer with nil at its
/// next `next()` by itself — never a late element — so an operator that
/// pulls it in place need not check again: ActorMVVM's relays' sequences,
/// its `map`, `filter` and `compactMap` over one, and the four-way
/// `combineLatest` (which checks itself when its live upstream does not).
@usableFromInline
protocol AnswersCancellation {}

extension EventRelay.Values: AnswersCancellation {}
extension StateRelay.Values: AnswersCancellation {}
extension AsyncMappedSequence: AnswersCancellation where Base: AnswersCancellation {}
extension AsyncFilteredSequence: AnswersCancellation where Base: AnswersCancellation {}
extension AsyncCompactMappedSequence: AnswersCancellation where Base: AnswersCancellation {}

/// Whether `sequence` answers cancellation itself (``AnswersCancellation``).
@inlinable
func answersCancellation<Sequence: AsyncSequence>(_ sequence: Sequence) -> Bool {
  sequence is any AnswersCancellation
}

/// The element of an ``AsyncJust``, or nil for any other sequence.
/// Specialised for a concrete `S`, the cast folds away: free either way.
@inlinable @inline(__always)
func just<S: AsyncSequence>(_ sequence: S) -> S.Element? where S.Element: Sendable {
  (sequence as? AsyncJust<S.Element>)?.element
}

/// The one element of an ``ImmediateAsyncSequence`` that has exactly one
/// (``AsyncJust``), or nil for any other sequence.
@inlinable
func single<S: AsyncSequence>(_ sequence: S) -> S.Element? where S.Element: Sendable {
  if let element = just(sequence) { return element }
  guard let immediate = sequence as? any ImmediateAsyncSequence else { return nil }
  func elements<I: ImmediateAsyncSequence>(_ immediate: I) -> [Any] { immediate.immediateElements }
  let all = elements(immediate)
  guard all.count == 1 else { return nil }
  return all[0] as? S.Element
}
