import ActorMVVMRuntimeShims
import ActorMVVMSupport

/// What a relay keeps for each subscriber, and how a subscriber takes what
/// it has not seen yet: the one difference between ``StateRelay``
/// (a version number: conflation) and ``EventRelay`` (a backlog: lossless).
/// Everything else about subscribing, parking, waking, cancelling and
/// unregistering is ``Subscriber``, written once.
@usableFromInline
protocol SubscriberPolicy: SendableMetatype {
  /// State shared by every subscriber of one relay (the current value).
  associatedtype Shared
  /// State of one subscriber (what it has seen, or its backlog).
  associatedtype Payload
  /// What one `next` hands the consumer.
  associatedtype Delivery

  /// Under the relay's lock: moves what this subscriber (`slot`) has not
  /// seen into `delivery` and returns true, or returns false if there is
  /// nothing.
  static func take(_ shared: Shared, _ slot: inout SubscriberSlot<Payload>, into delivery: inout Delivery) -> Bool

  /// Under the relay's lock: whether ``take(_:_:into:)`` would deliver.
  static func hasPending(_ shared: Shared, _ payload: Payload) -> Bool
}

/// One subscriber's slot in a relay's table.
@usableFromInline
struct SubscriberSlot<Payload> {
  @usableFromInline let id: UInt64
  @usableFromInline var payload: Payload
  @usableFromInline var waiter: UnsafeContinuation<Void, Never>?
  /// The flags below, one bit each, in one byte.
  @usableFromInline var flags: UInt8 = 0

  @inlinable @inline(__always)
  func flag(_ bit: UInt8) -> Bool { flags & bit != 0 }

  @inlinable @inline(__always)
  mutating func set(_ bit: UInt8, _ value: Bool) {
    if value { flags |= bit } else { flags &= ~bit }
  }

  /// Cancelled: its next `next()` ends it.
  @inlinable var cancelled: Bool {
    get { flag(1) }
    set { set(1, newValue) }
  }
  /// Set by the first `makeAsyncIterator()` over this subscription.
  @inlinable var iterated: Bool {
    get { flag(2) }
    set { set(2, newValue) }
  }
  /// Iterated by an operator's pump, which stops on its own when the
  /// operator ends: its iterator skips the per-element cancellation check.
  @inlinable var pumped: Bool {
    get { flag(4) }
    set { set(4, newValue) }
  }
  /// A bounded ``EventRelay``'s: the backlog's first event was handed to
  /// the consumer parked when it arrived, so it does not count against the
  /// bound (as `AsyncStream` resumes a waiting consumer with it directly).
  /// Meaningful while the backlog is not empty; cleared when the consumer
  /// takes that event.
  @inlinable var handedOff: Bool {
    get { flag(8) }
    set { set(8, newValue) }
  }

  @inlinable init(id: UInt64, payload: Payload) {
    self.id = id
    self.payload = payload
  }
}

/// A relay's state: its shared value, whether it has finished, and its
/// subscribers. Lives inside the relay's ``Locked``.
@usableFromInline
struct SubscriberTable<Policy: SubscriberPolicy> {
  // `finished` last, in the slot table's tail rather than padding a word
  // of its own (with the table's inline slot last in it): a smaller relay.
  @usableFromInline var shared: Policy.Shared
  /// Where this relay's subscriptions are counted (here, once per relay,
  /// rather than in each subscriber).
  @usableFromInline let counters: LifetimeCounters
  @usableFromInline var slots = SlotTable<SubscriberSlot<Policy.Payload>>()
  @usableFromInline var finished = false
  /// How many slots hold a `waiter`, so ``wakeParked()`` stops looking once
  /// it has found them all; `UInt16.max` means "that many or more", not
  /// counted until every waiter has been woken. Two bytes in the tail,
  /// beside `finished`: the relay object keeps its malloc size.
  @usableFromInline var parked: UInt16 = 0

  @inlinable init(shared: Policy.Shared, counters: LifetimeCounters) {
    self.shared = shared
    self.counters = counters
  }

  /// Counts a waiter stored in a slot.
  @inlinable @inline(__always)
  mutating func countParked() {
    if parked != .max { parked &+= 1 }
  }

  /// Counts a waiter taken out of a slot other than by waking them all.
  @inlinable @inline(__always)
  mutating func countUnparked() {
    if parked != .max { parked &-= 1 }
  }

  /// Applies `update` to every subscriber and collects the parked ones, to
  /// be resumed once the lock is released.
  @inlinable @inline(__always)
  mutating func wakeAll(_ update: (inout Policy.Payload) -> Void) -> Wakeups<Void> {
    var waiters = Wakeups<Void>()
    slots.forEach { slot in
      update(&slot.payload)
      if let waiter = slot.waiter {
        slot.waiter = nil
        waiters.append(waiter)
      }
    }
    parked = 0
    return waiters
  }

  /// Collects the parked subscribers, to be resumed once the lock is
  /// released, for a change every subscriber reads lazily (a state
  /// relay's version): it visits slots in index order only until it has
  /// found the ``parked`` ones, so subscribers busy elsewhere cost an
  /// accept nothing, and with none parked it visits no slot.
  @inlinable @inline(__always)
  mutating func wakeParked() -> Wakeups<Void> {
    var waiters = Wakeups<Void>()
    guard parked != 0 else { return waiters }
    var left = parked == .max ? Int.max : Int(parked)
    parked = 0
    slots.forEachWhile { slot -> Bool in
      if let waiter = slot.waiter {
        slot.waiter = nil
        waiters.append(waiter)
        left &-= 1
      }
      return left > 0
    }
    return waiters
  }

  /// ``wakeAll(_:)`` for a bounded relay, whose `update` is told whether the
  /// subscriber is parked (waiting for its next event) when it runs.
  @inlinable
  mutating func wakeAll(_ update: (inout SubscriberSlot<Policy.Payload>, _ parked: Bool) -> Void) -> Wakeups<Void> {
    var waiters = Wakeups<Void>()
    slots.forEach { slot in
      update(&slot, slot.waiter != nil)
      if let waiter = slot.waiter {
        slot.waiter = nil
        waiters.append(waiter)
      }
    }
    parked = 0
    return waiters
  }
}

extension Locked {
  /// A relay's `finish()`: marks its table finished and wakes every
  /// parked subscriber (after the lock is released), once; idempotent.
  @inlinable
  func finishSubscribers<Policy: SubscriberPolicy>() where Value == SubscriberTable<Policy> {
    let waiters = withLock { table -> Wakeups<Void> in
      guard !table.finished else { return Wakeups() }
      table.finished = true
      return table.wakeParked()
    }
    waiters.resume(returning: ())
  }
}

/// One registered subscriber of a relay: the code both relays share.
///
/// - Registered when created; unregistered exactly once, when it ends (the
///   relay finished and it has taken everything, its task was cancelled,
///   or it was released).
/// - **Cancellation** is checked at every ``next(into:isolation:)``, not only
///   when it would park: a cancelled consumer stops at its next call even
///   with a backlog, and a parked one is woken at once.
/// - **One consumer.** A subscriber is iterated by one task at a time; a
///   second task parking on it while the first is parked is a programming
///   error and traps with a message saying so (it would otherwise steal
///   the first one's wake-ups). The relays' sequences enforce a single
///   iterator before it gets that far.
@usableFromInline
final class Subscriber<Policy: SubscriberPolicy>: Sendable {
  @usableFromInline let storage: Locked<SubscriberTable<Policy>>
  /// The slot's index in the table (32 bits, so ``ended`` fits beside it:
  /// the object stays 40 bytes).
  @usableFromInline let slotIndex: Int32
  /// Set once ``end()`` has unregistered this subscriber. The `deinit`
  /// reads it first: a deinit of a generic class runs unspecialised, and
  /// looking the slot up there cost two generic metadata look-ups (about
  /// 1,000 instructions) for a subscription its iterator had already ended.
  ///
  /// `nonisolated(unsafe)` is safe because it is written only in `end()`,
  /// under the table's lock, and `end()` is called by the subscription's
  /// one iterator (one task at a time: a second iterator traps) or by the
  /// `deinit`; it is read only in the `deinit`, which runs after the last
  /// release of the object, and every write happened before that release.
  /// The thread-sanitized stress suite ends subscriptions from consumers
  /// on other threads than the ones that release them (`RelayStressTests`).
  @usableFromInline nonisolated(unsafe) var ended = false
  /// Unique in the process (`actormvvm_next_subscriber_id`, one atomic add
  /// per subscription, so no relay stores a counter of its own): tells this subscriber's
  /// slot from a later one that reuses its index.
  @usableFromInline let id: UInt64

  @inlinable
  init(storage: Locked<SubscriberTable<Policy>>, payload: Policy.Payload) {
    let id = actormvvm_next_subscriber_id()
    let (index, counters) = storage.withLock { table in
      (table.slots.insert(SubscriberSlot(id: id, payload: payload)), table.counters)
    }
    self.storage = storage
    self.slotIndex = Int32(index)
    self.id = id
    counters.subscriptionCount.increment()
  }

  deinit {
    // The last reference is gone: an `end()` happened before (see `ended`).
    if !ended { end() }
  }

  /// The slot's index in the table.
  @inlinable var index: Int { Int(slotIndex) }

  /// Claims the subscription for an iterator; traps if one was made before.
  /// Returns whether that iterator must check for cancellation at every
  /// element (false when an operator's pump iterates it).
  @inlinable
  func claimIterator(_ type: StaticString) -> Bool {
    let (claimed, pumped) = storage.withLock { table -> (Bool, Bool) in
      // An ended subscription can be claimed: its iterator just returns nil.
      guard table.slots[index]?.id == id else { return (true, false) }
      defer { table.slots[index]!.iterated = true }
      return (!table.slots[index]!.iterated, table.slots[index]!.pumped)
    }
    precondition(
      claimed,
      "\(type) is one subscription and can be iterated once; read the relay's `values` again for another subscriber")
    return !pumped
  }

  /// Marks the subscription as an operator's upstream, before its iterator
  /// is made.
  @inlinable
  func markPumped() {
    storage.withLock { table in
      guard table.slots[index]?.id == id else { return }
      table.slots[index]!.pumped = true
    }
  }

  @usableFromInline enum Poll { case delivered, end, wait }

  /// Hands the consumer what it has not seen yet, waiting if there is
  /// nothing. Returns false when the subscription has ended.
  @inlinable
  func next(
    into delivery: inout Policy.Delivery, checkingCancellation: Bool = true, isolation actor: isolated (any Actor)?
  ) async -> Bool {
    while true {
      if checkingCancellation, Task.isCancelled {
        end()
        return false
      }
      let poll = storage.withLock { table -> Poll in
        guard let slot = table.slots[index], slot.id == id, !slot.cancelled else { return .end }
        if Policy.take(table.shared, &table.slots[index]!, into: &delivery) { return .delivered }
        return table.finished ? .end : .wait
      }
      switch poll {
      case .delivered: return true
      case .end:
        end()
        return false
      case .wait: break
      }
      await withTaskCancellationHandler(
        operation: {
          await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Void, Never>) in
            let parked = storage.withLock { table -> Bool in
              guard let slot = table.slots[index], slot.id == id, !slot.cancelled, !table.finished,
                !Policy.hasPending(table.shared, slot.payload)
              else { return false }
              precondition(
                slot.waiter == nil, "two tasks are iterating one relay subscription at once; subscribe once per task")
              table.slots[index]!.waiter = continuation
              table.countParked()
              return true
            }
            if !parked { continuation.resume() }
          }
        },
        onCancel: { cancel() },
        isolation: actor)
    }
  }

  /// Marks the subscriber cancelled and wakes it if parked.
  @inlinable
  func cancel() {
    let waiter = storage.withLock { table -> UnsafeContinuation<Void, Never>? in
      guard table.slots[index]?.id == id else { return nil }
      table.slots[index]!.cancelled = true
      guard let waiter = table.slots[index]!.waiter else { return nil }
      table.slots[index]!.waiter = nil
      table.countUnparked()
      return waiter
    }
    waiter?.resume()
  }

  /// Unregisters this subscriber, exactly once.
  @inlinable
  func end() {
    let removedFrom = storage.withLock { table -> LifetimeCounters? in
      guard table.slots[index]?.id == id else { return nil }
      // Never parked here (its one iterator is the caller, or it is gone),
      // but `parked` counts the table's waiters whatever the path.
      if table.slots.remove(at: index)?.waiter != nil { table.countUnparked() }
      ended = true
      return table.counters
    }
    removedFrom?.subscriptionCount.decrement()
  }
}

/// A relay sequence that an operator iterates in one of its own pump
/// tasks. The pump stops when the operator ends (its deliveries are
/// refused), so the sequence's per-element cancellation check, which a
/// user's loop needs, is redundant there and is skipped.
///
/// For operator authors: call ``markOperatorUpstream()`` on an upstream
/// that conforms, before making its iterator, only when your pump stops by
/// itself once its consumer is gone. The relays' ``StateRelay/Values`` and
/// ``EventRelay/Values`` conform.
public protocol OperatorUpstream {
  /// Called by the pump before it makes its iterator; the iterator it
  /// then makes skips the per-element cancellation check.
  func markOperatorUpstream()
}
