import ActorMVVMSupport

/// A stream of events that many subscribers observe: ActorMVVM's
/// `PublishRelay` (and, read on the main actor, its `Signal`).
///
/// - **No replay:** a subscriber receives the events accepted after it
///   subscribed, and nothing from before.
/// - **Lossless and ordered** (with the default buffering): each subscriber
///   receives every such event exactly once, in the order ``accept(_:)``
///   linearised them (calls from one task keep their order).
/// - **Buffering:** per subscriber, as the relay's ``BufferingPolicy``
///   says: ``BufferingPolicy/unbounded`` by default (a slow subscriber's
///   backlog grows until it catches up; nothing is lost), or bounded,
///   keeping the oldest or the newest events of a backlog that is full (the
///   others are dropped for that subscriber alone; the order of what is
///   kept is the order accepted). As with `AsyncStream`'s policies of the
///   same names, an event that arrives while the subscriber is parked
///   waiting for it is handed to it and does not count against the bound:
///   with `.bufferingNewest(2)`, a parked subscriber given 1…5 at once reads
///   1, 4, 5. Every event not yet returned by `next()` is in the backlog the
///   bound counts, as in `AsyncStream`'s buffer: the same script gives the
///   same elements and drop counts (`EventRelayScriptTests`). An unbounded
///   subscriber drains its whole backlog in one lock acquisition per
///   wake-up, so catching up is cheap; a bounded one takes one event per
///   `next()`.
/// - **Termination:** a subscription ends after ``finish()`` once it has
///   drained what was accepted before; when the consuming task is
///   cancelled, at its next `next()` even with a backlog (which is
///   dropped); or when its sequence or iterator is dropped. Each ending
///   unregisters the subscriber, and after it `next()` returns nil forever.
/// - **One consumer per subscription:** ``values`` can be iterated once
///   (a second `makeAsyncIterator()` traps with a message); read `values`
///   again for another subscriber.
/// - **Concurrency:** `Sendable`; ``accept(_:)`` never suspends and may be
///   called from anywhere.
///
/// ``values`` is the relay's own sequence (fastest); ``stream`` is the same
/// subscription as an `AsyncStream`. Both register when the property is read.
public final class EventRelay<Value: Sendable>: Sendable {
  /// A subscriber's backlog, and how many events its bound dropped since
  /// the subscriber last took it (always 0 when unbounded).
  @usableFromInline
  struct Backlog {
    @usableFromInline var items: [Value] = []
    @usableFromInline var dropped = 0

    @inlinable init() {}
  }

  /// A subscriber's backlog: delivery in order, lossless unless bounded.
  /// Shared by every subscriber: the relay's ``limit`` word.
  @usableFromInline
  enum Policy: SubscriberPolicy {
    @usableFromInline typealias Shared = Int
    @usableFromInline typealias Payload = Backlog
    @usableFromInline typealias Delivery = Backlog

    /// Moves the backlog's events into `taken` (whose items are empty) and
    /// adds its drops to `taken`'s. A drop happens only while the backlog
    /// holds events, so every drop is handed over by a later take.
    ///
    /// Unbounded: the whole backlog, in one take. Bounded: its first event
    /// only, so what the consumer has not taken stays in the backlog, where
    /// the bound counts it — `AsyncStream`'s buffer is everything not yet
    /// returned by `next()` — and the event handed to a parked consumer is
    /// no longer the backlog's once taken.
    @inlinable @inline(__always)
    static func take(_ limit: Int, _ slot: inout SubscriberSlot<Backlog>, into taken: inout Backlog) -> Bool {
      guard !slot.payload.items.isEmpty else { return false }
      if limit == 0 {
        swap(&slot.payload.items, &taken.items)
      } else {
        taken.items.append(slot.payload.items.removeFirst())
        slot.handedOff = false
      }
      if slot.payload.dropped != 0 {
        taken.dropped &+= slot.payload.dropped
        slot.payload.dropped = 0
      }
      return true
    }

    @inlinable @inline(__always)
    static func hasPending(_ limit: Int, _ backlog: Backlog) -> Bool { !backlog.items.isEmpty }
  }

  @usableFromInline typealias Subscription = Subscriber<Policy>

  /// How much of a slow subscriber's backlog a relay keeps (the names are
  /// `AsyncStream`'s).
  public enum BufferingPolicy: Sendable, Equatable {
    /// Every event, however far behind the subscriber is: lossless.
    case unbounded
    /// At most this many: while the backlog is full, newer events are
    /// dropped (for that subscriber).
    case bufferingOldest(Int)
    /// At most this many: a new event into a full backlog drops its oldest.
    case bufferingNewest(Int)
  }

  @usableFromInline let storage: Locked<SubscriberTable<Policy>>
  /// The buffering policy as one word: 0 unbounded, n > 0 the oldest n,
  /// n < 0 the newest -n (one compare on the unbounded path).
  @usableFromInline let limit: Int

  /// Creates a relay with no subscribers.
  /// - Parameters:
  ///   - counters: where live subscriptions are counted.
  ///   - bufferingPolicy: how much of each subscriber's backlog is kept;
  ///     a bound must be at least 1.
  @inlinable
  public init(counters: LifetimeCounters = .shared, bufferingPolicy: BufferingPolicy = .unbounded) {
    let limit = Self.limit(of: bufferingPolicy)
    self.storage = Locked(SubscriberTable(shared: limit, counters: counters))
    self.limit = limit
  }

  /// Creates a relay whose policy is already a ``limit`` word (a feature
  /// keeps the word and makes its relay on first subscription).
  @inlinable
  init(counters: LifetimeCounters, limit: Int) {
    self.storage = Locked(SubscriberTable(shared: limit, counters: counters))
    self.limit = limit
  }

  /// `policy` as a ``limit`` word; traps on a bound below 1.
  @inlinable
  static func limit(of policy: BufferingPolicy) -> Int {
    switch policy {
    case .unbounded: return 0
    case .bufferingOldest(let count):
      precondition(count > 0, "EventRelay: bufferingOldest(\(count)) must keep at least one event")
      return count
    case .bufferingNewest(let count):
      precondition(count > 0, "EventRelay: bufferingNewest(\(count)) must keep at least one event")
      return -count
    }
  }

  /// The relay's buffering policy.
  public var bufferingPolicy: BufferingPolicy {
    limit == 0 ? .unbounded : limit > 0 ? .bufferingOldest(limit) : .bufferingNewest(-limit)
  }

  /// Whether ``finish()`` has been called.
  @inlinable
  public var isFinished: Bool { storage.withLock { $0.finished } }

  /// Subscribers registered right now.
  @inlinable
  public var subscriberCount: Int { storage.withLock { $0.slots.count } }

  /// Delivers `event` to every current subscriber (to its backlog, as the
  /// buffering policy allows). Ignored after ``finish()``. Never suspends.
  @inlinable
  public func accept(_ event: Value) {
    if limit != 0 { return acceptBounded(event) }
    let waiters = storage.withLock { table -> Wakeups<Void> in
      guard !table.finished else { return Wakeups() }
      return table.wakeAll { $0.items.append(event) }
    }
    waiters.resume(returning: ())
  }

  /// ``accept(_:)`` under a bounded policy, out of line so the lossless
  /// path is the unbounded relay's plus one compare: `limit` > 0 keeps the
  /// oldest events of a full backlog, < 0 the newest.
  @usableFromInline @inline(never)
  func acceptBounded(_ event: Value) {
    let limit = self.limit
    let waiters = storage.withLock { table -> Wakeups<Void> in
      guard !table.finished else { return Wakeups() }
      return table.wakeAll { slot, parked in
        // As `AsyncStream`: an event for a parked consumer is handed to it
        // and is not part of the bounded backlog behind it.
        if slot.payload.items.isEmpty { slot.handedOff = parked }
        if parked { return slot.payload.items.append(event) }
        let handed = slot.handedOff ? 1 : 0
        let buffered = slot.payload.items.count - handed
        if limit > 0 {
          if buffered < limit { slot.payload.items.append(event) } else { slot.payload.dropped &+= 1 }
        } else {
          if buffered >= -limit {
            let excess = buffered + limit + 1
            slot.payload.items.removeSubrange(handed..<(handed + excess))
            slot.payload.dropped &+= excess
          }
          slot.payload.items.append(event)
        }
      }
    }
    waiters.resume(returning: ())
  }

  /// Ends every subscription after it drains its backlog. Idempotent.
  @inlinable
  public func finish() {
    storage.finishSubscribers()
  }

  /// A new subscription as this relay's own sequence. Registered now.
  @inlinable
  public var values: Values { Values(subscription: Subscription(storage: storage, payload: Backlog())) }

  /// A new subscription as an `AsyncStream`. Registered now.
  @inlinable
  public var stream: AsyncStream<Value> {
    let cursor = StreamCursor(subscription: Subscription(storage: storage, payload: Backlog()))
    return AsyncStream(unfolding: { await cursor.next() })
  }

  /// This relay's own sequence: one subscription, iterated once; see
  /// ``EventRelay`` for its contract.
  public struct Values: AsyncSequence, Sendable {
    /// The type of the elements.
    public typealias Element = Value
    /// The type of error iteration can throw.
    public typealias Failure = Never
    @usableFromInline let subscription: Subscription

    @inlinable init(subscription: Subscription) { self.subscription = subscription }

    /// Makes the one iterator of this subscription; a second call traps.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
      Iterator(subscription: subscription, checksCancellation: subscription.claimIterator("EventRelay.Values"))
    }

    /// The iterator: one consumer at a time; the contract is the sequence's.
    public struct Iterator: AsyncIteratorProtocol {
      /// The type of the elements.
      public typealias Element = Value
      /// The type of error iteration can throw.
      public typealias Failure = Never
      @usableFromInline let subscription: Subscription
      @usableFromInline let checksCancellation: Bool
      @usableFromInline var batch = Batch<Value>()
      @usableFromInline var dropped = 0

      @inlinable init(subscription: Subscription, checksCancellation: Bool) {
        self.subscription = subscription
        self.checksCancellation = checksCancellation
      }

      /// How many events the relay's bounded ``BufferingPolicy`` dropped for
      /// this subscriber among those accepted before it last refilled (0
      /// when unbounded). With the events this iterator has returned, it
      /// accounts for every event accepted for the subscriber once the
      /// iterator has drained them: `returned + droppedCount` is the
      /// subscriber's position in what was accepted, which a consumer that
      /// counts events (to know it has caught up) uses under a lossy policy.
      /// A drop is counted at the next refill after it, never lost: it only
      /// happens while events are waiting to be taken.
      @inlinable public var droppedCount: Int { dropped }

      /// The next element, or nil once the sequence has ended (see the sequence's contract).
      @inlinable @inline(__always)
      public mutating func next() async -> Value? { await next(isolation: nil) }

      /// `next()` for a caller isolated to `actor`, which it resumes on without an extra hop.
      @inlinable @inline(__always)
      public mutating func next(isolation actor: isolated (any Actor)?) async -> Value? {
        // The fast path inlines into the caller's loop; only a refill is a call.
        if let event = batch.pop(), !checksCancellation || !Task.isCancelled { return event }
        return await refill(isolation: actor)
      }

      @inlinable
      mutating func refill(isolation actor: isolated (any Actor)?) async -> Value? {
        if checksCancellation, Task.isCancelled {
          subscription.end()
          batch = Batch()
          return nil
        }
        var taken = Backlog()
        batch.reset()
        swap(&taken.items, &batch.items)  // the emptied storage, to reuse
        let more = await subscription.next(into: &taken, checkingCancellation: checksCancellation, isolation: actor)
        swap(&taken.items, &batch.items)
        dropped &+= taken.dropped
        return more ? batch.pop() : nil
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
      // No cancellation check here: `AsyncStream(unfolding:)` checks at
      // every `next()` itself and then ends, releasing this cursor
      // (`RelayAndOperatorEdgeTests.eventRelayCancelledWithBacklog`).
      if let event = batch.withLock({ $0.pop() }) { return event }
      var taken = Backlog()
      taken.items = batch.withLock { $0.takeStorage() }
      guard await subscription.next(into: &taken, isolation: nil) else { return nil }
      return batch.withLock { batch in
        batch.items = taken.items
        return batch.pop()
      }
    }
  }
}

extension EventRelay.Values: OperatorUpstream {
  @inlinable public func markOperatorUpstream() { subscription.markPumped() }
}
