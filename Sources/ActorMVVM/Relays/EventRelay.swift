/// A stream of events that many subscribers observe: ActorMVVM's
/// `PublishRelay` (and, read on the main actor, its `Signal`).
///
/// - **No replay:** a subscriber receives the events accepted after it
///   subscribed, and nothing from before.
/// - **Lossless and ordered:** each subscriber receives every such event
///   exactly once, in the order ``accept(_:)`` linearised them (calls from one
///   task keep their order).
/// - **Buffering:** unbounded, per subscriber. A slow subscriber's backlog
///   grows until it catches up; it drains its whole backlog in one lock
///   acquisition per wake-up, so catching up is cheap.
/// - **Termination:** a subscription ends after ``finish()`` once it has
///   drained what was accepted before, when the consuming task is cancelled
///   (buffered events are dropped), or when its sequence or iterator is
///   dropped. Each ending unregisters the subscriber.
/// - **Concurrency:** `Sendable`; ``accept(_:)`` never suspends and may be
///   called from anywhere.
///
/// ``values`` is the relay's own sequence (fastest); ``stream`` is the same
/// subscription as an `AsyncStream`. Both register when the property is read.
public final class EventRelay<Value: Sendable>: Sendable {
  @usableFromInline
  struct Slot {
    @usableFromInline let id: UInt64
    @usableFromInline var buffer: [Value] = []
    @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
    @usableFromInline var cancelled = false

    @inlinable init(id: UInt64) { self.id = id }
  }

  @usableFromInline
  struct Storage {
    @usableFromInline var finished = false
    @usableFromInline var nextID: UInt64 = 0
    @usableFromInline var table = SlotTable<Slot>()

    @inlinable init() {}
  }

  @usableFromInline let storage = Locked(Storage())
  @usableFromInline let counters: LifetimeCounters

  /// Creates a relay with no subscribers.
  /// - Parameter counters: where live subscriptions are counted.
  @inlinable
  public init(counters: LifetimeCounters = .shared) {
    self.counters = counters
  }

  /// Whether ``finish()`` has been called.
  @inlinable
  public var isFinished: Bool { storage.withLock { $0.finished } }

  /// Subscribers registered right now.
  @inlinable
  public var subscriberCount: Int { storage.withLock { $0.table.count } }

  /// Delivers `event` to every current subscriber. Ignored after
  /// ``finish()``. Never suspends.
  @inlinable
  public func accept(_ event: Value) {
    let waiters = storage.withLock { state -> Wakeups<Void> in
      guard !state.finished else { return Wakeups() }
      var waiters = Wakeups<Void>()
      state.table.forEach { slot in
        slot.buffer.append(event)
        if let waiter = slot.waiter {
          slot.waiter = nil
          waiters.append(waiter)
        }
      }
      return waiters
    }
    waiters.resume(returning: ())
  }

  /// Ends every subscription after it drains its backlog. Idempotent.
  @inlinable
  public func finish() {
    let waiters = storage.withLock { state -> Wakeups<Void> in
      guard !state.finished else { return Wakeups() }
      state.finished = true
      var waiters = Wakeups<Void>()
      state.table.forEach { slot in
        if let waiter = slot.waiter {
          slot.waiter = nil
          waiters.append(waiter)
        }
      }
      return waiters
    }
    waiters.resume(returning: ())
  }

  /// A new subscription as this relay's own sequence. Registered now.
  @inlinable
  public var values: Values { Values(subscription: Subscription(relay: self)) }

  /// A new subscription as an `AsyncStream`. Registered now.
  @inlinable
  public var stream: AsyncStream<Value> {
    let cursor = StreamCursor(subscription: Subscription(relay: self))
    return AsyncStream(unfolding: { await cursor.next() })
  }

  /// This relay's own sequence; see ``EventRelay`` for its contract.
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
      @usableFromInline var batch = Batch<Value>()

      @inlinable init(subscription: Subscription) { self.subscription = subscription }

      @inlinable
      public mutating func next() async -> Value? { await next(isolation: nil) }

      @inlinable
      public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
        if let event = batch.pop() { return event }
        batch.reset()
        guard await subscription.refill(&batch.items, isolation: actor) else { return nil }
        return batch.pop()
      }
    }
  }

  /// The consumer side of an `AsyncStream` view: the drained batch lives in
  /// a lock only its single consumer touches, so the lock is uncontended.
  @usableFromInline
  final class StreamCursor: Sendable {
    @usableFromInline let subscription: Subscription
    @usableFromInline let batch = Locked(Batch<Value>())

    @inlinable init(subscription: Subscription) { self.subscription = subscription }

    @inlinable
    func next() async -> Value? {
      if let event = batch.withLock({ $0.pop() }) { return event }
      var items = batch.withLock { $0.takeStorage() }
      guard await subscription.refill(&items, isolation: nil) else { return nil }
      return batch.withLock { batch in
        batch.items = items
        return batch.pop()
      }
    }
  }

  /// One registered subscriber. Unregisters when it ends or is released.
  @usableFromInline
  final class Subscription: Sendable {
    @usableFromInline let relay: EventRelay
    @usableFromInline let index: Int
    @usableFromInline let id: UInt64

    @inlinable init(relay: EventRelay) {
      self.relay = relay
      (index, id) = relay.storage.withLock { state in
        state.nextID &+= 1
        let id = state.nextID
        return (state.table.insert(Slot(id: id)), id)
      }
      relay.counters.subscriptionCount.increment()
    }

    deinit { end() }

    @usableFromInline enum Poll { case filled, end, wait }

    @inlinable func poll(_ state: inout Storage, into items: inout [Value]) -> Poll {
      guard let slot = state.table[index], slot.id == id else { return .end }
      if slot.cancelled { return .end }
      if !slot.buffer.isEmpty {
        swap(&state.table[index]!.buffer, &items)
        return .filled
      }
      return state.finished ? .end : .wait
    }

    /// Swaps this subscriber's backlog into `items` (which must be empty),
    /// waiting for one if there is none. Returns false when the
    /// subscription has ended.
    @inlinable
    func refill(_ items: inout [Value], isolation actor: isolated (any Actor)?) async -> Bool {
      while true {
        switch relay.storage.withLock({ poll(&$0, into: &items) }) {
        case .filled: return true
        case .end:
          end()
          return false
        case .wait: break
        }
        if Task.isCancelled {
          end()
          return false
        }
        await withTaskCancellationHandler {
          await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
            let parked = relay.storage.withLock { state -> Bool in
              guard let slot = state.table[index], slot.id == id, !slot.cancelled,
                slot.buffer.isEmpty, !state.finished
              else { return false }
              state.table[index]!.waiter = continuation
              return true
            }
            if !parked { continuation.resume() }
          }
        } onCancel: {
          let waiter = relay.storage.withLock { state -> UnsafeContinuation<Void, Never>? in
            guard state.table[index]?.id == id else { return nil }
            state.table[index]!.cancelled = true
            defer { state.table[index]!.waiter = nil }
            return state.table[index]!.waiter
          }
          waiter?.resume()
        }
      }
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

/// A drained backlog and a read position in it; reused across refills so a
/// steady stream allocates no new arrays.
@usableFromInline
struct Batch<Value> {
  @usableFromInline var items: [Value] = []
  @usableFromInline var index = 0

  @inlinable init() {}

  @inlinable @inline(__always)
  mutating func pop() -> Value? {
    guard index < items.count else { return nil }
    defer { index += 1 }
    return items[index]
  }

  /// Empties the consumed items, keeping their capacity for the next refill.
  @inlinable
  mutating func reset() {
    items.removeAll(keepingCapacity: true)
    index = 0
  }

  /// Moves the (emptied) storage out, so the caller holds the only reference.
  @inlinable
  mutating func takeStorage() -> [Value] {
    reset()
    var taken: [Value] = []
    swap(&taken, &items)
    return taken
  }
}
