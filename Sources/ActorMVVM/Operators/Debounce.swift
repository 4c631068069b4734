extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element only after `interval` of silence on `clock` has
  /// followed it: Rx's `debounce`.
  ///
  /// - **Emits** the latest element once no newer one has arrived for
  ///   `interval`; each new element restarts the wait.
  /// - **Finishes** when `self` finishes, first emitting a pending element
  ///   at once (it does not wait out the interval).
  /// - **Errors:** an upstream error is thrown at once; a pending element is
  ///   dropped.
  /// - **Cancellation:** cancelling the consumer, or dropping the iterator,
  ///   cancels the upstream task and the timer.
  /// - **Buffering:** one pending element; the upstream runs in its own task
  ///   up to 128 elements ahead. Time comes only from `clock` (inject a
  ///   `TestClock` in tests).
  @inlinable
  public func debounce<C: Clock>(
    for interval: C.Duration, clock: C
  ) -> AsyncDebounceSequence<Self, C> {
    AsyncDebounceSequence(base: self, interval: interval, clock: clock)
  }

  /// ``debounce(for:clock:)`` on the `ContinuousClock`.
  @inlinable
  public func debounce(for interval: Duration) -> AsyncDebounceSequence<Self, ContinuousClock> {
    debounce(for: interval, clock: ContinuousClock())
  }
}

/// The sequence returned by `debounce(for:clock:)`.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  public typealias Element = Base.Element
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let clock: C

  @inlinable init(base: Base, interval: C.Duration, clock: C) {
    self.base = base
    self.interval = interval
    self.clock = clock
  }

  @inlinable
  public func makeAsyncIterator() -> Iterator { Iterator(base: base, interval: interval, clock: clock) }

  @usableFromInline
  enum Event: Sendable {
    case element(Base.Element)
    case ended((any Error)?)
    case timer(generation: UInt64)
  }

  public struct Iterator: AsyncIteratorProtocol {
    public typealias Element = Base.Element
    public typealias Failure = Base.Failure

    @usableFromInline let base: Base
    @usableFromInline let interval: C.Duration
    @usableFromInline let clock: C
    @usableFromInline var reader: ChannelReader<Event>?
    @usableFromInline var pending: Base.Element?
    @usableFromInline var generation: UInt64 = 0
    @usableFromInline var timer: UInt64?
    @usableFromInline var finished = false

    @inlinable
    init(base: Base, interval: C.Duration, clock: C) {
      self.base = base
      self.interval = interval
      self.clock = clock
    }

    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard !finished else { return nil }
      if reader == nil {
        let reader = ChannelReader<Event>()
        let base = self.base
        reader.channel.spawn { await pump(base, into: $0, wrap: Event.element, end: Event.ended) }
        self.reader = reader
      }
      while let event = await reader!.next() {
        switch event {
        case .element(let element):
          pending = element
          restartTimer()
        case .timer(let generation):
          if generation == self.generation, let element = pending {
            pending = nil
            return element
          }
        case .ended(let error):
          finished = true
          reader?.channel.terminate()
          // Only the upstream throws into the channel, and it throws `Failure`.
          if let error { throw error as! Failure }
          defer { pending = nil }
          return pending
        }
      }
      finished = true
      return nil
    }

    @inlinable
    mutating func restartTimer() {
      generation &+= 1
      if let timer { reader!.channel.cancelTask(timer) }
      let (generation, clock) = (self.generation, self.clock)
      let deadline = clock.now.advanced(by: interval)
      timer = reader!.channel.spawn { channel in
        do {
          try await clock.sleep(until: deadline, tolerance: nil)
          _ = await channel.send(.timer(generation: generation))
        } catch {}
      }
    }
  }
}
