import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Maps each element to a sequence and emits the elements of the most
  /// recent one only: Rx's `flatMapLatest` (switch-to-latest).
  ///
  /// - **Emits** the elements of the inner sequence made from the latest
  ///   outer element. A new outer element cancels the previous inner
  ///   sequence; anything it delivers afterwards is dropped (inner elements
  ///   carry a generation, so stale ones never surface). Elements the
  ///   previous inner emitted before the switch are still delivered, in
  ///   order, as in Rx.
  /// - **Finishes** when the outer sequence has finished and the current
  ///   inner sequence (if any) has finished.
  /// - **Errors:** the first error from the outer or the current inner
  ///   sequence is thrown; errors from superseded inners are dropped.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels the outer
  ///   and inner tasks.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** the outer and the current inner run in their own
  ///   tasks; at most 128 elements wait for the consumer before they stop
  ///   being pulled.
  /// - **Cost:** `transform` is called for every outer element, as Rx
  ///   calls its selector, but an inner is iterated in a task only if it
  ///   is still the latest when that task begins: under a burst of outer
  ///   elements, the inners superseded before their task started are never
  ///   iterated (a started inner is cancelled when superseded). One task
  ///   runs the latest inner instead of one task per element being started
  ///   and cancelled (see the article *Benchmarks* in `ActorMVVM.docc`).
  /// - **Inners that emit at once:** return an ``AsyncJust`` (Rx's
  ///   `.just(x)`) or another ``ImmediateAsyncSequence`` and the inline
  ///   overload is chosen: every inner emits before the next outer element,
  ///   as in Rx, with no task. Any other inner runs in its own task, so one
  ///   superseded before it ran emits nothing even if it would have emitted
  ///   at once: only the timing of superseded inners differs from Rx; the
  ///   latest inner's elements are always delivered.
  @inlinable
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlatMapLatestSequence(base: self, transform: transform)
  }

  /// ``flatMapLatest(_:)->AsyncFlatMapLatestSequence<Self,Inner>`` with inner sequences that never throw, under an
  /// outer sequence of any error type: the inner needs no error type of its
  /// own (a never-failing search result stream under a throwing query
  /// stream). The contract is ``flatMapLatest(_:)->AsyncFlatMapLatestSequence<Self,Inner>``'s.
  @inlinable @_disfavoredOverload
  public func flatMapLatest<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapLatestSequence<Self, AsyncNeverFailingSequence<Inner, Failure>>
  where Inner.Element: Sendable, Inner.Failure == Never {
    AsyncFlatMapLatestSequence(base: self, transform: { AsyncNeverFailingSequence(base: transform($0)) })
  }
}

/// A sequence that never throws, typed as throwing `Failure`: how an inner
/// sequence that cannot fail takes its place under an outer sequence that
/// can (`AsyncSequence/flatMapLatest(_:)`). Its elements and
/// end are `base`'s.
public struct AsyncNeverFailingSequence<Base: AsyncSequence & Sendable, Failure: Error>: AsyncSequence, Sendable
where Base.Failure == Never {
  /// The type of the elements.
  public typealias Element = Base.Element
  @usableFromInline let base: Base

  @inlinable init(base: Base) { self.base = base }

  /// Makes this sequence's iterator: `base`'s.
  @inlinable public func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator()) }

  /// The iterator: `base`'s elements; never throws.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator

    @inlinable init(base: Base.AsyncIterator) { self.base = base }

    /// `base`'s next element.
    @inlinable public mutating func next() async throws(Failure) -> Base.Element? {
      var iterator = base
      defer { base = iterator }
      return await iterator.next(isolation: nil)
    }
  }
}

/// The sequence returned by `flatMapLatest(_:)`.
public struct AsyncFlatMapLatestSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Inner.Element: Sendable, Inner.Failure == Base.Failure {
  /// The type of the elements.
  public typealias Element = Inner.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = FlatMapLatestStateMachine<Base.Element, Inner.Element>

  @usableFromInline let base: Base
  @usableFromInline let transform: @Sendable (Base.Element) -> Inner

  @inlinable init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
    self.base = base
    self.transform = transform
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, transform: transform) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    /// The type of the elements.
    public typealias Element = Inner.Element
    /// The type of error iteration can throw.
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let transform: @Sendable (Base.Element) -> Inner
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable
    init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
      self.base = base
      self.transform = transform
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable @inline(__always)
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let (base, transform) = (self.base, self.transform)
      return try await reader.next(
        start: {
          let core = OperatorCore(Machine())
          core.spawn { core in
            await pump(
              base, into: core, wrap: { .outer($0) }, end: { .outerEnded($0) },
              perform: { command, core in Self.perform(command, core: core, transform: transform) })
          }
          return core
        }, failure: Failure.self, isolation: actor)
    }

    @inlinable
    static func perform(
      _ command: Machine.Command, core: OperatorCore<Machine>, transform: @Sendable (Base.Element) -> Inner
    ) {
      guard case .switchInner(let element, let generation) = command else { return }
      let inner = transform(element)
      core.spawnLatest { core in
        await pump(
          inner, into: core, wrap: { .inner($0, generation: generation) },
          end: { .innerEnded($0, generation: generation) }, perform: { _, _ in })
      }
    }
  }
}

/// flatMapLatest's decisions (STYLE §3, §6): each inner run carries a
/// generation, and only the current generation's events count.
@usableFromInline
struct FlatMapLatestStateMachine<Outer: Sendable, Element: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Event: Sendable {
    case outer(Outer)
    case outerEnded((any Error)?)
    case inner(Element, generation: UInt64)
    case innerEnded((any Error)?, generation: UInt64)
  }

  @usableFromInline
  enum Command {
    /// Cancel the current inner sequence and start the one made from this
    /// outer element, stamped with this generation.
    case switchInner(Outer, generation: UInt64)
  }

  @usableFromInline var generation: UInt64 = 0
  @usableFromInline var innerActive = false
  @usableFromInline var outerEnded = false

  @inlinable init() {}

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    case .outer(let element):
      precondition(!outerEnded, "FlatMapLatestStateMachine: an outer element after the outer's end, in \(self)")
      generation &+= 1
      innerActive = true
      return .switchInner(element, generation: generation)
    case .inner(let element, let generation):
      if generation == self.generation { output.emit(element) }
    case .innerEnded(let error, let generation):
      guard generation == self.generation else { return nil }  // superseded
      if let error { output.fail(error); return nil }
      innerActive = false
      if outerEnded { output.finish() }
    case .outerEnded(let error?):
      output.fail(error)
    case .outerEnded(nil):
      outerEnded = true
      if !innerActive { output.finish() }
    }
    return nil
  }
}
