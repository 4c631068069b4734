import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Maps each element to a sequence and merges their elements as they
  /// arrive: Rx's `flatMap` (and `merge(maxConcurrent:)` over the mapped
  /// sequences). Named as Kotlin's Flow names it: the standard library's
  /// `flatMap` on `AsyncSequence` concatenates.
  ///
  /// - **Emits** every element of every inner sequence, as it arrives; each
  ///   inner's own order is kept. At most `maxConcurrent` inners are
  ///   iterated at once; outer elements beyond that wait, in order, for an
  ///   inner to finish (Rx's `merge(maxConcurrent:)`).
  /// - **`transform`** is called when the outer element arrives, in the
  ///   outer's order, even when its inner must wait for a slot (as Rx's
  ///   `MergeLimitedSink`): a transform that reads the time or some state
  ///   sees them as they were at the element, and an inner it makes is
  ///   iterated once a slot frees.
  /// - **Finishes** when the outer sequence and every inner (running or
  ///   waiting) have finished.
  /// - **Errors:** the first error from the outer or any inner is thrown at
  ///   once; every other task is cancelled.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels the outer
  ///   and inner tasks.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** the outer and each running inner are pulled by tasks
  ///   of their own; outer elements waiting for a slot are kept without
  ///   bound, as in Rx; at most 128 elements wait for the consumer before
  ///   the tasks stop pulling.
  @inlinable
  public func flatMapMerge<Inner: AsyncSequence & Sendable>(
    maxConcurrent: Int = .max, _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
    precondition(maxConcurrent > 0, "flatMapMerge(maxConcurrent: \(maxConcurrent)): at least one inner must run")
    return AsyncFlatMapSequence(base: self, policy: .merge(maxConcurrent: maxConcurrent), transform: transform)
  }

  /// Maps each element to a sequence and emits their elements one inner
  /// after the other: Rx's `concatMap`. ``flatMapMerge(maxConcurrent:_:)->AsyncFlatMapSequence<Self,Inner>``
  /// with one inner at a time: an outer element that arrives while an inner
  /// runs is mapped at once (`transform` runs when it arrives, as in Rx) and
  /// its inner waits for the running one to finish.
  @inlinable
  public func concatMap<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlatMapSequence(base: self, policy: .merge(maxConcurrent: 1), transform: transform)
  }

  /// Maps each element to a sequence, ignoring outer elements that arrive
  /// while the current inner runs: Rx's `flatMapFirst`. The contract of
  /// ``flatMapMerge(maxConcurrent:_:)->AsyncFlatMapSequence<Self,Inner>`` with one inner at a time, except
  /// that an outer element arriving meanwhile is dropped (`transform` is not
  /// called for it), not queued.
  @inlinable
  public func flatMapFirst<Inner: AsyncSequence & Sendable>(
    _ transform: @escaping @Sendable (Element) -> Inner
  ) -> AsyncFlatMapSequence<Self, Inner> where Inner.Element: Sendable, Inner.Failure == Failure {
    AsyncFlatMapSequence(base: self, policy: .first, transform: transform)
  }
}

/// The sequence `flatMapMerge(maxConcurrent:_:)`, `concatMap(_:)` and
/// `flatMapFirst(_:)` return.
public struct AsyncFlatMapSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Inner.Element: Sendable, Inner.Failure == Base.Failure {
  /// The type of the elements.
  public typealias Element = Inner.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = FlatMapStateMachine<Arrival, Inner.Element>

  /// An outer element as the machine holds it: already mapped (merge and
  /// concat map on arrival), or not (flatMapFirst maps only what it starts).
  @usableFromInline
  enum Arrival: Sendable {
    case mapped(Inner)
    case unmapped(Base.Element)

    @inlinable
    func inner(_ transform: @Sendable (Base.Element) -> Inner) -> Inner {
      switch self {
      case .mapped(let inner): inner
      case .unmapped(let element): transform(element)
      }
    }
  }

  @usableFromInline let base: Base
  @usableFromInline let policy: Machine.Policy
  @usableFromInline let transform: @Sendable (Base.Element) -> Inner

  @inlinable
  init(base: Base, policy: Machine.Policy, transform: @escaping @Sendable (Base.Element) -> Inner) {
    self.base = base
    self.policy = policy
    self.transform = transform
  }

  /// Makes this sequence's iterator (see the operators' contract).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, policy: policy, transform: transform) }

  /// The iterator: one consumer at a time; the contract is the operators'.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline let policy: Machine.Policy
    @usableFromInline let transform: @Sendable (Base.Element) -> Inner
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable
    init(base: Base, policy: Machine.Policy, transform: @escaping @Sendable (Base.Element) -> Inner) {
      self.base = base
      self.policy = policy
      self.transform = transform
    }

    /// The next element, or nil once the sequence has ended.
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      let (base, policy, transform) = (self.base, self.policy, self.transform)
      return try await reader.next(
        start: {
          let core = OperatorCore(Machine(policy: policy))
          core.spawn { core in
            await pump(
              base, into: core,
              wrap: { element in
                if case .first = policy { return .outer(.unmapped(element)) }
                return .outer(.mapped(transform(element)))
              }, end: { .outerEnded($0) },
              perform: { command, core in Self.start(command, core, transform) })
          }
          return core
        }, failure: Failure.self, isolation: actor)
    }

    /// Starts the inner the machine asks for, in a task of its own; its end
    /// may start the next waiting one.
    @inlinable
    static func start(
      _ command: Machine.Command, _ core: OperatorCore<Machine>,
      _ transform: @escaping @Sendable (Base.Element) -> Inner
    ) {
      guard case .startInner(let id, let arrival) = command else { return }
      core.spawn { core in
        await pump(
          arrival.inner(transform), into: core, wrap: { .inner(id, $0) }, end: { .innerEnded(id, $0) },
          perform: { command, core in start(command, core, transform) })
      }
    }
  }
}

/// The decisions of flatMapMerge, concatMap and flatMapFirst (STYLE §3),
/// after RxSwift's `MergeLimitedSink` and `FlatMapFirst`: running inners by
/// id, outer elements waiting for a slot, and when it is all over.
@usableFromInline
struct FlatMapStateMachine<Outer: Sendable, Element: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Policy: Sendable {
    /// Up to `maxConcurrent` inners at once; more outer elements wait.
    case merge(maxConcurrent: Int)
    /// One inner at a time; outer elements meanwhile are dropped.
    case first
  }

  @usableFromInline
  enum Event: Sendable {
    case outer(Outer)
    case outerEnded((any Error)?)
    case inner(UInt64, Element)
    case innerEnded(UInt64, (any Error)?)
  }

  @usableFromInline
  enum Command: Sendable {
    case startInner(UInt64, Outer)
  }

  @usableFromInline let policy: Policy
  @usableFromInline var running: Set<UInt64> = []
  @usableFromInline var waiting: [Outer] = []
  @usableFromInline var nextID: UInt64 = 0
  @usableFromInline var outerEnded = false

  @inlinable init(policy: Policy) { self.policy = policy }

  @inlinable var slots: Int {
    switch policy {
    case .merge(let maxConcurrent): maxConcurrent
    case .first: 1
    }
  }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    case .outer(let element):
      if running.count < slots { return start(element) }
      if case .merge = policy { waiting.append(element) }  // flatMapFirst drops it
    case .inner(let id, let element):
      if running.contains(id) { output.emit(element) }
    case .outerEnded(let error?), .innerEnded(_, let error?):
      output.fail(error)
    case .outerEnded(nil):
      outerEnded = true
      finishIfOver(&output)
    case .innerEnded(let id, nil):
      running.remove(id)
      if !waiting.isEmpty { return start(waiting.removeFirst()) }
      finishIfOver(&output)
    }
    return nil
  }

  @inlinable
  mutating func start(_ element: Outer) -> Command {
    nextID &+= 1
    running.insert(nextID)
    return .startInner(nextID, element)
  }

  @inlinable
  func finishIfOver(_ output: inout OperatorOutput<Element>) {
    if outerEnded, running.isEmpty, waiting.isEmpty { output.finish() }
  }
}
