import ActorMVVMSupport

/// A current value that many subscribers observe: ActorMVVM's `BehaviorRelay`
/// (and, read on the main actor, its `Driver`).
///
/// - **Replay:** every subscription starts with the value current when it
///   subscribed.
/// - **Conflation:** a subscriber that is slower than the producer skips to the
///   latest value. It never sees an older value after a newer one, never sees
///   the same update twice, and a subscriber that keeps reading always ends on
///   the final value.
/// - **Buffering:** none per subscriber beyond "has it seen the latest
///   version"; memory does not grow with a slow subscriber.
/// - **Termination:** a subscription ends when the relay is finished (after the
///   final value is delivered); when the consuming task is cancelled, at its
///   next `next()`; or when its sequence or iterator is dropped. Each ending
///   unregisters the subscriber, so ``subscriberCount`` returns to zero, and
///   after it `next()` returns nil forever.
/// - **One consumer per subscription:** ``values`` can be iterated once
///   (a second `makeAsyncIterator()` traps with a message); read `values`
///   again for another subscriber.
/// - **Concurrency:** `Sendable`. ``accept(_:)`` and ``value`` may be called
///   from any thread or actor and never suspend; they take one short lock.
///   Calls to `accept` from one task are observed in that order.
///
/// Two views of the same subscription are offered: ``values`` (this
/// relay's own `AsyncSequence`, the fastest) and ``stream`` (an
/// `AsyncStream`, for APIs that want exactly that type). Both register the
/// subscriber when the property is read, not when iteration starts.
public final class StateRelay<Value: Sendable>: Sendable {
  /// The current value and its version; each subscriber remembers the
  /// version it saw last: conflation.
  @usableFromInline
  enum Policy: SubscriberPolicy {
    @usableFromInline typealias Shared = Current
    @usableFromInline typealias Payload = UInt64
    @usableFromInline typealias Delivery = Value?

    @inlinable @inline(__always)
    static func take(_ current: Current, _ slot: inout SubscriberSlot<UInt64>, into value: inout Value?) -> Bool {
      guard slot.payload < current.version else { return false }
      slot.payload = current.version
      value = current.value
      return true
    }

    @inlinable @inline(__always)
    static func hasPending(_ current: Current, _ seen: UInt64) -> Bool { seen < current.version }
  }

  @usableFromInline
  struct Current {
    @usableFromInline var value: Value
    @usableFromInline var version: UInt64 = 1

    @inlinable init(value: Value) { self.value = value }
  }

  @usableFromInline typealias Subscription = Subscriber<Policy>

  @usableFromInline let cell: StateCell<Value>

  /// Creates a relay holding `initialValue`.
  /// - Parameters:
  ///   - initialValue: the value the relay holds until the first `accept`.
  ///   - counters: where live subscriptions are counted.
  @inlinable
  public init(_ initialValue: Value, counters: LifetimeCounters = .shared) {
    cell = StateCell(initialValue, counters: counters)
  }

  /// The current value. Never suspends.
  @inlinable
  public var value: Value { cell.value }

  /// The current value and the number of its publication (every
  /// ``accept(_:)`` that changed it counts one): two reads with the same
  /// version saw the same publication, whatever `==` says of the values.
  @inlinable
  var versionedValue: (value: Value, version: UInt64) { cell.versionedValue }

  /// Whether ``finish()`` has been called.
  @inlinable
  public var isFinished: Bool { cell.storage.withLock { $0.finished } }

  /// Subscribers registered right now.
  @inlinable
  public var subscriberCount: Int { cell.storage.withLock { $0.slots.count } }

  /// Replaces the value and wakes every waiting subscriber.
  /// Ignored after ``finish()``. Never suspends.
  @inlinable
  public func accept(_ newValue: Value) { cell.accept(newValue) }

  /// Like ``accept(_:)``, unless `newValue` equals the current value, in
  /// which case nothing changes and nobody is woken. One lock either way.
  @inlinable
  public func acceptIfChanged(_ newValue: Value) where Value: Equatable { cell.acceptIfChanged(newValue) }

  /// Ends every subscription once it has seen the final value. Later
  /// subscriptions receive the final value and end. Idempotent.
  @inlinable
  public func finish() { cell.finish() }

  /// A new subscription as this relay's own sequence (the fast path).
  /// Registered now; iterated once.
  @inlinable
  public var values: Values { cell.values }

  /// A new subscription as an `AsyncStream`. Registered now.
  @inlinable
  public var stream: AsyncStream<Value> { cell.stream }

  /// This relay's own sequence of values: one subscription, iterated once;
  /// see ``StateRelay`` for its contract.
  public struct Values: ReplayingAsyncSequence, Sendable {
    /// The type of the elements.
    public typealias Element = Value
    /// The type of error iteration can throw.
    public typealias Failure = Never
    @usableFromInline let subscription: Subscription

    @inlinable init(subscription: Subscription) { self.subscription = subscription }

    /// The relay's value now: what an iteration started now begins with.
    @inlinable
    public var currentElement: Value? { subscription.storage.withLock { $0.shared.value } }

    /// Makes the one iterator of this subscription; a second call traps.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
      Iterator(subscription: subscription, checksCancellation: subscription.claimIterator("StateRelay.Values"))
    }

    /// The iterator: one consumer at a time; the contract is the sequence's.
    public struct Iterator: AsyncIteratorProtocol {
      /// The type of the elements.
      public typealias Element = Value
      /// The type of error iteration can throw.
      public typealias Failure = Never
      @usableFromInline let subscription: Subscription
      @usableFromInline let checksCancellation: Bool

      @inlinable init(subscription: Subscription, checksCancellation: Bool) {
        self.subscription = subscription
        self.checksCancellation = checksCancellation
      }

      /// The next element, or nil once the sequence has ended (see the sequence's contract).
      @inlinable
      public mutating func next() async -> Value? { await next(isolation: nil) }

      /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
      @inlinable
      public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
        var value: Value?
        return await subscription.next(into: &value, checkingCancellation: checksCancellation, isolation: actor)
          ? value : nil
      }
    }
  }
}

extension StateRelay.Values: OperatorUpstream {
  @inlinable public func markOperatorUpstream() { subscription.markPumped() }
}

/// A ``StateRelay``'s state without the relay object: the value, its
/// version and the subscribers, under one lock. A struct around one
/// ``Locked`` (copies share it), so a ``Feature`` holds its state relay
/// inline and pays for one allocation, not two; the relay's contract is
/// this type's.
@usableFromInline
struct StateCell<Value: Sendable>: Sendable {
  @usableFromInline typealias Policy = StateRelay<Value>.Policy
  @usableFromInline let storage: Locked<SubscriberTable<Policy>>

  @inlinable init(_ initialValue: Value, counters: LifetimeCounters) {
    storage = Locked(SubscriberTable(shared: StateRelay<Value>.Current(value: initialValue), counters: counters))
  }

  @inlinable var value: Value { storage.withLock { $0.shared.value } }

  @inlinable var versionedValue: (value: Value, version: UInt64) {
    storage.withLock { ($0.shared.value, $0.shared.version) }
  }

  @inlinable
  func accept(_ newValue: Value) {
    let waiters = storage.withLock { table -> Wakeups<Void> in
      guard !table.finished else { return Wakeups() }
      table.shared.value = newValue
      table.shared.version &+= 1
      return table.wakeParked()
    }
    waiters.resume(returning: ())
  }

  @inlinable
  func acceptIfChanged(_ newValue: Value) where Value: Equatable {
    let waiters = storage.withLock { table -> Wakeups<Void> in
      guard !table.finished, table.shared.value != newValue else { return Wakeups() }
      table.shared.value = newValue
      table.shared.version &+= 1
      return table.wakeParked()
    }
    waiters.resume(returning: ())
  }

  @inlinable
  func finish() {
    storage.finishSubscribers()
  }

  @inlinable
  var values: StateRelay<Value>.Values {
    StateRelay.Values(subscription: StateRelay.Subscription(storage: storage, payload: 0))
  }

  @inlinable
  var stream: AsyncStream<Value> {
    let subscription = StateRelay<Value>.Subscription(storage: storage, payload: 0)
    return AsyncStream(unfolding: {
      var value: Value?
      return await subscription.next(into: &value, isolation: nil) ? value : nil
    })
  }
}
