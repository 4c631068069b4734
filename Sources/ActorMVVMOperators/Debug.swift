import ActorMVVM

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Passes every element through unchanged and logs what happens to the
  /// chain at this point: Rx's `debug(_:)`. Lines read
  /// `+300ms search -> Event next(seoul)`, timed from the subscription (the
  /// first `next()`) on `clock` — a `TestClock` gives virtual times, the
  /// same on every run — in Rx's words: `subscribed`, `Event next(…)`,
  /// `Event error(…)`, `Event completed`, then `isDisposed` once: after the
  /// end, or when the consumer's task is cancelled, or when the iterator is
  /// dropped unfinished.
  ///
  /// Runs in the consumer's task, pulling `self` directly: it finishes and
  /// throws exactly when `self` does. A cancelled consumer gets nil at its
  /// next `next()`. After it has returned nil or thrown, `next()` returns
  /// nil forever. Element descriptions are printed as they are: keep
  /// secrets out of a debugged chain. `log` is called in the consumer's
  /// task, one line at a time (the default prints).
  @inlinable
  public func debug<C: Clock>(
    _ identifier: String, clock: C, log: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> AsyncDebugSequence<Self, C> where C.Duration == Duration {
    AsyncDebugSequence(base: self, identifier: identifier, clock: clock, log: log)
  }

  /// ``debug(_:clock:log:)`` timed on the `ContinuousClock`.
  @inlinable
  public func debug(
    _ identifier: String, log: @escaping @Sendable (String) -> Void = { print($0) }
  ) -> AsyncDebugSequence<Self, ContinuousClock> {
    debug(identifier, clock: ContinuousClock(), log: log)
  }
}

/// The sequence returned by `debug(_:clock:log:)`.
public struct AsyncDebugSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable, C.Duration == Duration {
  /// The type of the elements.
  public typealias Element = Base.Element
  /// The type of error iteration can throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let identifier: String
  @usableFromInline let clock: C
  @usableFromInline let log: @Sendable (String) -> Void

  @inlinable init(base: Base, identifier: String, clock: C, log: @escaping @Sendable (String) -> Void) {
    self.base = base
    self.identifier = identifier
    self.clock = clock
    self.log = log
  }

  /// Makes this sequence's iterator; it logs `subscribed` at its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), journal: DebugJournal(identifier: identifier, clock: clock, log: log))
  }

  /// The iterator: one consumer at a time; the contract is the sequence's.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let journal: DebugJournal<C>

    @inlinable init(base: Base.AsyncIterator, journal: DebugJournal<C>) {
      self.base = base
      self.journal = journal
    }

    /// The next element, or nil once the sequence has ended (see the sequence's contract).
    @inlinable
    public mutating func next() async throws(Failure) -> Element? {
      try await next(isolation: nil)
    }

    /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      guard journal.begin() else { return nil }
      do {
        let element = try await base.next(isolation: actor)
        guard !Task.isCancelled else {
          journal.dispose()
          return nil
        }
        guard let element else {
          journal.end("Event completed")
          return nil
        }
        journal.write("Event next(\(element))")
        return element
      } catch {
        journal.end("Event error(\(error))")
        throw error
      }
    }
  }
}

/// What one debugged iteration has logged, shared by the iterator's
/// copies; it logs `isDisposed` when the last copy goes unfinished.
///
/// Not `Sendable`: an iterator, and so its journal, belongs to one task.
@usableFromInline
final class DebugJournal<C: Clock> where C.Duration == Duration {
  @usableFromInline let identifier: String
  @usableFromInline let clock: C
  @usableFromInline let log: @Sendable (String) -> Void
  @usableFromInline var start: C.Instant?
  @usableFromInline var disposed = false

  @inlinable init(identifier: String, clock: C, log: @escaping @Sendable (String) -> Void) {
    self.identifier = identifier
    self.clock = clock
    self.log = log
  }

  deinit { if start != nil { dispose() } }

  /// Logs `subscribed` at the first call; false once the iteration is over
  /// (or the consumer's task is cancelled, which ends it).
  @inlinable
  func begin() -> Bool {
    if disposed { return false }
    if start == nil {
      start = clock.now
      write("subscribed")
    }
    if Task.isCancelled {
      dispose()
      return false
    }
    return true
  }

  @inlinable
  func write(_ content: String) {
    let elapsed = start.map { $0.duration(to: clock.now) } ?? .zero
    let (seconds, attoseconds) = elapsed.components
    let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    log("+\(milliseconds)ms \(identifier) -> \(content)")
  }

  @inlinable
  func end(_ content: String) {
    write(content)
    dispose()
  }

  @inlinable
  func dispose() {
    guard !disposed else { return }
    disposed = true
    write("isDisposed")
  }
}
