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
///   final value is delivered), when the consuming task is cancelled, or when
///   its sequence or iterator is dropped. Each ending unregisters the
///   subscriber, so ``subscriberCount`` returns to zero.
/// - **Concurrency:** `Sendable`. ``accept(_:)`` and ``value`` may be called
///   from any thread or actor and never suspend; they take one short lock.
///   Calls to `accept` from one task are observed in that order.
///
/// Two views of the same subscription are offered: ``values`` (this
/// relay's own `AsyncSequence`, the fastest) and ``stream`` (an
/// `AsyncStream`, for APIs that want exactly that type). Both register the
/// subscriber when the property is read, not when iteration starts.
public final class StateRelay<Value: Sendable>: Sendable {
  @usableFromInline
  struct Slot {
    @usableFromInline let id: UInt64
    @usableFromInline var seen: UInt64
    @usableFromInline var waiter: UnsafeContinuation<Value?, Never>?
    @usableFromInline var cancelled = false

    @inlinable init(id: UInt64, seen: UInt64) {
      self.id = id
      self.seen = seen
    }
  }

  @usableFromInline
  struct Storage {
    @usableFromInline var value: Value
    @usableFromInline var version: UInt64 = 1
    @usableFromInline var finished = false
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var table = SlotTable<Slot>()

    @inlinable init(value: Value) { self.value = value }
  }

  @usableFromInline let storage: Locked<Storage>
  @usableFromInline let counters: LifetimeCounters

  /// Creates a relay holding `initialValue`.
  /// - Parameter counters: where live subscriptions are counted.
  @inlinable
  public init(_ initialValue: Value, counters: LifetimeCounters = .shared) {
    storage = Locked(Storage(value: initialValue))
    self.counters = counters
  }

  /// The current value. Never suspends.
  @inlinable
  public var value: Value { storage.withLock { $0.value } }

  /// Whether ``finish()`` has been called.
  @inlinable
  public var isFinished: Bool { storage.withLock { $0.finished } }

  /// Subscribers registered right now.
  @inlinable
  public var subscriberCount: Int { storage.withLock { $0.table.count } }

  /// Replaces the value and wakes every waiting subscriber with it.
  /// Ignored after ``finish()``. Never suspends.
  @inlinable
  public func accept(_ newValue: Value) {
    let waiters = storage.withLock { state -> Wakeups<Value?> in
      guard !state.finished else { return Wakeups() }
      state.value = newValue
      state.version &+= 1
      let version = state.version
      var waiters = Wakeups<Value?>()
      state.table.forEach { slot in
        if let waiter = slot.waiter {
          slot.waiter = nil
          slot.seen = version
          waiters.append(waiter)
        }
      }
      return waiters
    }
    waiters.resume(returning: newValue)
  }

  /// Ends every subscription once it has seen the final value. Later
  /// subscriptions receive the final value and end. Idempotent.
  @inlinable
  public func finish() {
    let waiters = storage.withLock { state -> Wakeups<Value?> in
      guard !state.finished else { return Wakeups() }
      state.finished = true
      var waiters = Wakeups<Value?>()
      state.table.forEach { slot in
        if let waiter = slot.waiter {
          slot.waiter = nil
          waiters.append(waiter)
        }
      }
      return waiters
    }
    // Waiting subscribers have seen the latest version already: they end.
    waiters.resume(returning: nil)
  }

  /// A new subscription as this relay's own sequence (the fast path).
  /// Registered now; single-pass, like `AsyncStream`.
  @inlinable
  public var values: Values { Values(subscription: Subscription(relay: self)) }

  /// A new subscription as an `AsyncStream`. Registered now.
  @inlinable
  public var stream: AsyncStream<Value> {
    let subscription = Subscription(relay: self)
    return AsyncStream(unfolding: { await subscription.next() })
  }

  /// This relay's own sequence of values; see ``StateRelay`` for its contract.
  public struct Values: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias Failure = Never
    @usableFromInline let subscription: Subscription

    @inlinable init(subscription: Subscription) { self.subscription = subscription }

    @inlinable
    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    public struct Iterator: AsyncIteratorProtocol {
      public typealias Element = Value
      public typealias Failure = Never
      @usableFromInline let subscription: Subscription

      @inlinable init(subscription: Subscription) { self.subscription = subscription }

      @inlinable
      public mutating func next() async -> Value? { await subscription.next() }

      @inlinable
      public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
        await subscription.next(isolation: actor)
      }
    }
  }

  /// One registered subscriber. Unregisters when it ends or is released.
  @usableFromInline
  final class Subscription: Sendable {
    @usableFromInline let relay: StateRelay
    @usableFromInline let index: Int
    @usableFromInline let id: UInt64

    @inlinable init(relay: StateRelay) {
      self.relay = relay
      (index, id) = relay.storage.withLock { state in
        state.nextID &+= 1
        let id = state.nextID
        return (state.table.insert(Slot(id: id, seen: 0)), id)
      }
      relay.counters.subscriptionCount.increment()
    }

    deinit { end() }

    @usableFromInline enum Poll { case value(Value), end, wait }

    /// Runs under the lock: the next value for this slot, the end, or wait.
    @inlinable func poll(_ state: inout Storage) -> Poll {
      guard let slot = state.table[index], slot.id == id else { return .end }
      if slot.seen < state.version {
        state.table[index]!.seen = state.version
        return .value(state.value)
      }
      return state.finished || slot.cancelled ? .end : .wait
    }

    @inlinable
    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Value? {
      switch relay.storage.withLock({ poll(&$0) }) {
      case .value(let value): return value
      case .end:
        end()
        return nil
      case .wait: break
      }
      let value = await withTaskCancellationHandler {
        await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Value?, Never>) in
          let poll = relay.storage.withLock { state -> Poll in
            let poll = self.poll(&state)
            if case .wait = poll { state.table[index]!.waiter = continuation }
            return poll
          }
          switch poll {
          case .value(let value): continuation.resume(returning: value)
          case .end: continuation.resume(returning: nil)
          case .wait: break
          }
        }
      } onCancel: {
        let waiter = relay.storage.withLock { state -> UnsafeContinuation<Value?, Never>? in
          guard state.table[index]?.id == id else { return nil }
          state.table[index]!.cancelled = true
          defer { state.table[index]!.waiter = nil }
          return state.table[index]!.waiter
        }
        waiter?.resume(returning: nil)
      }
      if value == nil { end() }
      return value
    }

    /// Unregisters this subscriber, exactly once.
    @inlinable
    func end() {
      let removed = relay.storage.withLock { state -> Bool in
        guard state.table[index]?.id == id else { return false }
        state.table.remove(at: index)
        return true
      }
      if removed { relay.counters.subscriptionCount.decrement() }
    }
  }
}
