import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits the elements of `self` until `trigger` produces its first
  /// element, then finishes: Rx's `take(until:)` with an observable.
  ///
  /// - **Finishes** when `trigger` produces (elements of `self` that arrive
  ///   after that are not emitted), or when `self` finishes. A `trigger`
  ///   that ends without producing stops mattering: `self` runs on to its
  ///   own end (as Rx).
  /// - **Errors:** an error from `self`, or from `trigger` before it has
  ///   produced, is thrown at once.
  /// - **Start:** both sequences are iterated, each in its own task, from
  ///   the first `next()`; `trigger` first, as Rx subscribes. A `trigger`
  ///   that replays (a `ReplayingAsyncSequence` with a current element, a
  ///   `StateRelay`'s values) fires as it is subscribed, as a
  ///   `BehaviorRelay` does in Rx: the sequence ends at once and `self` is
  ///   never iterated.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, the end, or dropping the iterator cancels
  ///   both tasks.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** emitted elements wait for the consumer, at most 128
  ///   before `self` stops being pulled.
  @inlinable
  public func take<Trigger: AsyncSequence & Sendable>(
    until trigger: Trigger
  ) -> AsyncTakeUntilSequence<Self, Trigger> where Trigger.Element: Sendable, Trigger.Failure == Failure {
    AsyncTakeUntilSequence(base: self, trigger: trigger)
  }
}

/// The sequence returned by `take(until:)`.
public struct AsyncTakeUntilSequence<Base: AsyncSequence & Sendable, Trigger: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Trigger.Element: Sendable, Base.Failure == Trigger.Failure {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = TakeUntilStateMachine<Base.Element>

  @usableFromInline let base: Base
  @usableFromInline let trigger: Trigger

  @inlinable init(base: Base, trigger: Trigger) {
    self.base = base
    self.trigger = trigger
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, trigger: trigger) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline let trigger: Trigger
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(base: Base, trigger: Trigger) {
      self.base = base
      self.trigger = trigger
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      // Rx subscribes to the trigger first, and a replaying one fires then:
      // the sequence ends before `self` is iterated at all.
      if !reader.isStarted, replaysNow(trigger) { return reader.end() }
      return try await reader.next(
        trigger, wrap: { _ in .triggered }, end: { .triggerEnded($0) },
        base, wrap: { .element($0) }, end: { .baseEnded($0) },
        make: { Machine() }, isolation: actor)
    }
  }
}

/// take(until:)'s decisions (STYLE §3), after RxSwift's `TakeUntilSink`.
@usableFromInline
struct TakeUntilStateMachine<Element: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Event: Sendable {
    case element(Element)
    case baseEnded((any Error)?)
    case triggered
    case triggerEnded((any Error)?)
  }

  @usableFromInline typealias Command = Never

  @inlinable init() {}

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Never? {
    switch event {
    case .element(let element): output.emit(element)
    case .baseEnded(nil), .triggered: output.finish()
    case .triggerEnded(nil): break  // a trigger that never fired no longer matters
    case .baseEnded(let error?), .triggerEnded(let error?): output.fail(error)
    }
    return nil
  }
}

/// Whether `take(until:behavior:)` emits the element that
/// ends it: RxSwift's `TakeBehavior`.
public enum TakeUntilBehavior: Sendable, Equatable {
  /// The element that satisfies the predicate ends the sequence unemitted.
  case exclusive
  /// The element that satisfies the predicate is emitted, then the sequence ends.
  case inclusive
}

extension AsyncSequence {
  /// Emits the elements of `self` until one satisfies `predicate`, then
  /// finishes: Rx's `take(until:behavior:)` with a predicate (`prefix(while:)`
  /// with the condition negated, plus the inclusive form).
  ///
  /// ```swift
  /// for try await status in uploads.take(until: { $0.isFinal }, behavior: .inclusive) { show(status) }
  /// ```
  ///
  /// - **Finishes** at the first element that satisfies `predicate`
  ///   (emitting it first with `.inclusive`), or when `self` finishes.
  /// - **Errors:** an error from `self`, or one `predicate` throws, is
  ///   thrown at once.
  /// - **Runs** in the consumer's task, pulling `self` directly; no task,
  ///   nothing buffered. A cancelled consumer gets nil at its next `next()`,
  ///   even if `self` ignores cancellation.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever, whatever `self` would do.
  @inlinable
  public func take(
    until predicate: @escaping @Sendable (Element) throws(Failure) -> Bool, behavior: TakeUntilBehavior = .exclusive
  ) -> AsyncTakeUntilPredicateSequence<Self> {
    AsyncTakeUntilPredicateSequence(base: self, predicate: predicate, behavior: behavior)
  }
}

/// The sequence returned by `take(until:behavior:)`.
public struct AsyncTakeUntilPredicateSequence<Base: AsyncSequence>: AsyncSequence {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let predicate: @Sendable (Element) throws(Failure) -> Bool
  @usableFromInline let behavior: TakeUntilBehavior

  @inlinable init(
    base: Base, predicate: @escaping @Sendable (Element) throws(Failure) -> Bool, behavior: TakeUntilBehavior
  ) {
    self.base = base
    self.predicate = predicate
    self.behavior = behavior
  }

  /// Makes this sequence's iterator; nothing starts until its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), predicate: predicate, behavior: behavior)
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let predicate: @Sendable (Element) throws(Failure) -> Bool
    @usableFromInline let behavior: TakeUntilBehavior
    @usableFromInline var done = false

    @inlinable init(
      base: Base.AsyncIterator, predicate: @escaping @Sendable (Element) throws(Failure) -> Bool,
      behavior: TakeUntilBehavior
    ) {
      self.base = base
      self.predicate = predicate
      self.behavior = behavior
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard !done, !Task.isCancelled else { return end() }
      do {
        // A cancelled consumer stops here, even over an upstream that ignores cancellation.
        guard let element = try await base.next(isolation: actor), !Task.isCancelled else { return end() }
        guard try predicate(element) else { return element }
        done = true
        return behavior == .inclusive ? element : nil
      } catch {
        done = true
        throw error
      }
    }

    @inlinable
    mutating func end() -> Element? {
      done = true
      return nil
    }
  }
}

extension AsyncTakeUntilPredicateSequence: Sendable where Base: Sendable {}
