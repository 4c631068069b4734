import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits the latest element of `self` each time `sampler` produces or
  /// ends, if a new one arrived since the last sample: Rx's
  /// `sample(_:defaultValue:)`, `withLatestFrom`'s sibling (there the
  /// trigger is `self`; here it is `sampler`).
  ///
  /// - **Emits**, at each element of `sampler` and at its end, the latest
  ///   element of `self` if one arrived since the previous sample;
  ///   otherwise `defaultValue` if given; otherwise nothing. An element is
  ///   sampled once.
  /// - **Finishes** at the first sample (an element or the end of
  ///   `sampler`) after `self` has finished — emitting the latest element
  ///   first if one is pending — or when `sampler` ends after `self` has.
  ///   If `sampler` ends while `self` goes on, nothing samples again until
  ///   `self` ends; then the latest element, if one arrived since the last
  ///   sample, is emitted and the sequence finishes. (Rx never completes
  ///   there. The two ends reach the operator from two tasks, which cannot
  ///   tell which came first; finishing is Rx's outcome whenever `self`
  ///   ended first.) Until then, end it by cancelling.
  /// - **Errors:** the first error from either sequence is thrown at once.
  /// - **Start:** both sequences are iterated, each in its own task, from
  ///   the first `next()`; `self` first, as Rx subscribes. A `self` that
  ///   replays (a `ReplayingAsyncSequence` with a current element, a
  ///   `StateRelay`'s values) hands that element to the operator before
  ///   `sampler` is iterated at all, so a sampler that replays too samples
  ///   it, as in Rx.
  /// - **Cancellation:** cancelling the consuming task ends the sequence at
  ///   its next `next()`; that, or dropping the iterator, cancels both tasks.
  /// - **After the end:** once it has returned nil or thrown, `next()`
  ///   returns nil forever.
  /// - **Buffering:** the latest element of `self`; emitted elements wait
  ///   for the consumer, at most 128 before the upstreams stop being pulled.
  @inlinable
  public func sample<Sampler: AsyncSequence & Sendable>(
    _ sampler: Sampler, defaultValue: Element? = nil
  ) -> AsyncSampleSequence<Self, Sampler> where Sampler.Element: Sendable, Sampler.Failure == Failure {
    AsyncSampleSequence(base: self, sampler: sampler, defaultValue: defaultValue)
  }
}

/// The sequence returned by `sample(_:defaultValue:)`.
public struct AsyncSampleSequence<Base: AsyncSequence & Sendable, Sampler: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base.Element: Sendable, Sampler.Element: Sendable, Base.Failure == Sampler.Failure {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure
  @usableFromInline typealias Machine = SampleStateMachine<Base.Element>

  @usableFromInline let base: Base
  @usableFromInline let sampler: Sampler
  @usableFromInline let defaultValue: Base.Element?

  @inlinable init(base: Base, sampler: Sampler, defaultValue: Base.Element?) {
    self.base = base
    self.sampler = sampler
    self.defaultValue = defaultValue
  }

  /// Makes this sequence's iterator (see the type's contract for when work starts).
  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, sampler: sampler, defaultValue: defaultValue) }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let base: Base
    @usableFromInline let sampler: Sampler
    @usableFromInline let defaultValue: Base.Element?
    @usableFromInline var reader = OperatorReader<Machine>()

    @inlinable init(base: Base, sampler: Sampler, defaultValue: Base.Element?) {
      self.base = base
      self.sampler = sampler
      self.defaultValue = defaultValue
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      if reader.isStarted { return try await reader.next(failure: Failure.self, isolation: actor) }
      let (base, sampler, defaultValue) = (self.base, self.sampler, self.defaultValue)
      if replaysNow(base) {
        // Only `self` is pumped; the machine asks for the sampler's pump
        // once `self`'s first event is in (its current element, in Rx's order).
        return try await reader.next(
          start: {
            let core = OperatorCore(Machine(defaultValue: defaultValue, samplerWaits: true))
            core.spawn { core in
              await pump(base, into: core, wrap: { .element($0) }, end: { .baseEnded($0) }) { _, core in
                core.spawn { core in
                  await pump(sampler, into: core, wrap: { _ in .sample }, end: { .samplerEnded($0) }) { _, _ in }
                }
              }
            }
            return core
          }, failure: Failure.self, isolation: actor)
      }
      return try await reader.next(
        base, wrap: { .element($0) }, end: { .baseEnded($0) },
        sampler, wrap: { _ in .sample }, end: { .samplerEnded($0) },
        make: { Machine(defaultValue: defaultValue) }, isolation: actor)
    }
  }
}

/// Sample's decisions (STYLE §3), after RxSwift's `SampleSequenceSink`.
@usableFromInline
struct SampleStateMachine<Element: Sendable>: OperatorStateMachine {
  @usableFromInline
  enum Event: Sendable {
    case element(Element)
    case baseEnded((any Error)?)
    case sample
    case samplerEnded((any Error)?)
  }

  /// Start iterating the sampler: asked for once, at the base's first
  /// event, when the sampler waits for it (a replaying base).
  @usableFromInline enum Command: Sendable, Equatable { case subscribeSampler }

  @usableFromInline let defaultValue: Element?
  @usableFromInline var latest: Element?
  @usableFromInline var baseEnded = false
  @usableFromInline var samplerEnded = false
  /// The sampler is not iterated until the base's first event.
  @usableFromInline var samplerWaits: Bool

  @inlinable init(defaultValue: Element?, samplerWaits: Bool = false) {
    self.defaultValue = defaultValue
    self.samplerWaits = samplerWaits
  }

  @inlinable
  mutating func handle(_ event: Event, output: inout OperatorOutput<Element>) -> Command? {
    switch event {
    case .element(let element):
      latest = element
    case .baseEnded(nil):
      baseEnded = true
      if samplerEnded {  // nothing samples any more: the latest, if new, then the end
        if let latest { output.emit(latest) }
        output.finish()
      }
    case .sample, .samplerEnded(nil):  // the sampler's end samples too, as in Rx
      if case .samplerEnded = event { samplerEnded = true }
      emitSample(&output)
      if baseEnded { output.finish() }
    case .baseEnded(let error?), .samplerEnded(let error?):
      output.fail(error)
    }
    guard samplerWaits else { return nil }
    samplerWaits = false
    return .subscribeSampler
  }

  @inlinable
  mutating func emitSample(_ output: inout OperatorOutput<Element>) {
    if let value = latest ?? defaultValue { output.emit(value) }
    latest = nil
  }
}
