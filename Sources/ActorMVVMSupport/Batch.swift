/// A drained backlog and a read position in it; reused across refills so a
/// steady stream allocates no new arrays.
public struct Batch<Value> {
  /// The drained events; those before ``index`` were read.
  public var items: [Value] = []
  /// The position of the next event to read.
  public var index = 0

  /// An empty batch.
  @inlinable public init() {}

  /// The next unread event, or nil once all were read.
  @inlinable @inline(__always)
  public mutating func pop() -> Value? {
    guard index < items.count else { return nil }
    defer { index += 1 }
    return items[index]
  }

  /// Empties the consumed items, keeping their capacity for the next refill.
  @inlinable
  public mutating func reset() {
    items.removeAll(keepingCapacity: true)
    index = 0
  }

  /// Moves the (emptied) storage out, so the caller holds the only reference.
  @inlinable
  public mutating func takeStorage() -> [Value] {
    reset()
    var taken: [Value] = []
    swap(&taken, &items)
    return taken
  }
}
