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
