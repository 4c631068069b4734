import ActorMVVMSupport

/// A table of subscriber slots with stable indices and a free list.
///
/// A subscription keeps its index, so finding its slot is O(1); a freed
/// index is reused by the next subscriber, so the table never grows past
/// the peak number of concurrent subscribers. Index 0 is stored inline
/// (most relays, a feature's state among them, have one subscriber: it
/// costs no array); the others live in `rest`, index `i` at `rest[i - 1]`.
/// Not thread-safe: it always lives inside a relay's lock (`Locked`).
@usableFromInline
struct SlotTable<Slot> {
  // `first` last: what follows the table can use its tail.
  @usableFromInline var rest: [Slot?] = []
  @usableFromInline var free: [Int] = []
  @usableFromInline var first: Slot?

  @inlinable init() {}

  /// Occupied slots (derived, not stored: a word less per relay).
  @inlinable
  var count: Int { (first == nil ? 0 : 1) + rest.count - free.count }

  @inlinable
  mutating func insert(_ slot: Slot) -> Int {
    if first == nil {
      first = slot
      return 0
    }
    if let index = free.popLast() {
      rest[index - 1] = slot
      return index
    }
    rest.append(slot)
    return rest.count
  }

  @inlinable
  @discardableResult
  mutating func remove(at index: Int) -> Slot? {
    guard let slot = self[index] else { return nil }
    self[index] = nil
    if index != 0 { free.append(index) }
    return slot
  }

  /// Mutates every occupied slot in index order.
  @inlinable @inline(__always)
  mutating func forEach(_ body: (inout Slot) -> Void) {
    if first != nil { body(&first!) }
    guard !rest.isEmpty else { return }
    for index in rest.indices where rest[index] != nil {
      body(&rest[index]!)
    }
  }

  /// Mutates occupied slots in index order until `body` returns false.
  @inlinable @inline(__always)
  mutating func forEachWhile(_ body: (inout Slot) -> Bool) {
    if first != nil, !body(&first!) { return }
    guard !rest.isEmpty else { return }
    for index in rest.indices where rest[index] != nil {
      if !body(&rest[index]!) { return }
    }
  }

  @inlinable
  subscript(index: Int) -> Slot? {
    get { index == 0 ? first : rest[index - 1] }
    _modify {
      if index == 0 {
        yield &first
      } else {
        yield &rest[index - 1]
      }
    }
  }
}

/// The subscribers an update wakes, collected under a relay's lock and
/// resumed after it is released. The first is stored inline, so waking a
/// single subscriber (the common case) allocates nothing.
@usableFromInline
struct Wakeups<Value: Sendable> {
  @usableFromInline var first: UnsafeContinuation<Value, Never>?
  @usableFromInline var rest: [UnsafeContinuation<Value, Never>] = []

  @inlinable init() {}

  @inlinable
  mutating func append(_ waiter: UnsafeContinuation<Value, Never>) {
    if first == nil { first = waiter } else { rest.append(waiter) }
  }

  /// Resumes every collected subscriber with `value`. Call outside the lock.
  @inlinable
  func resume(returning value: Value) {
    first?.resume(returning: value)
    for waiter in rest { waiter.resume(returning: value) }
  }
}
