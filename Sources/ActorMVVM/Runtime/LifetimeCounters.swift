import Synchronization

/// Counts the runtime objects that are alive right now: features, running
/// effect tasks, input bindings and relay subscriptions.
///
/// Every ``Feature`` and relay reports to one set of counters: the one passed
/// to its initialiser, or ``shared``. A test that owns its counters can check
/// that finishing a feature leaves nothing behind, without interference from
/// tests running beside it.
///
/// Concurrency: all members are atomic and may be read from any thread. A
/// reading is a snapshot; it is exact once the objects it counts have settled
/// (for example after `await feature.finish()`).
public final class LifetimeCounters: Sendable {
  /// The counters used when none is injected.
  public static let shared = LifetimeCounters()

  @usableFromInline let featureCount = Atomic<Int>(0)
  @usableFromInline let effectCount = Atomic<Int>(0)
  @usableFromInline let bindingCount = Atomic<Int>(0)
  @usableFromInline let subscriptionCount = Atomic<Int>(0)

  /// A fresh set of counters, all zero: give one to the features of one test.
  public init() {}

  /// Features initialised and not yet deinitialised.
  public var features: Int { featureCount.load(ordering: .acquiring) }
  /// Effect tasks started and not yet returned.
  public var effects: Int { effectCount.load(ordering: .acquiring) }
  /// `bind(_:)` tasks started and not yet returned.
  public var bindings: Int { bindingCount.load(ordering: .acquiring) }
  /// Relay subscriptions registered and not yet ended.
  public var subscriptions: Int { subscriptionCount.load(ordering: .acquiring) }

  /// A snapshot of all four counts.
  public var snapshot: Snapshot {
    Snapshot(features: features, effects: effects, bindings: bindings, subscriptions: subscriptions)
  }

  /// The four counts at one moment.
  public struct Snapshot: Equatable, Sendable, CustomStringConvertible {
    /// Features alive.
    public var features: Int
    /// Effect tasks running.
    public var effects: Int
    /// Binding tasks running.
    public var bindings: Int
    /// Relay subscriptions registered.
    public var subscriptions: Int

    /// A snapshot with these counts.
    public init(features: Int, effects: Int, bindings: Int, subscriptions: Int) {
      self.features = features
      self.effects = effects
      self.bindings = bindings
      self.subscriptions = subscriptions
    }

    /// All four counts are zero.
    public static let zero = Snapshot(features: 0, effects: 0, bindings: 0, subscriptions: 0)

    /// The counts on one line, for a failing expectation.
    public var description: String {
      "features: \(features), effects: \(effects), bindings: \(bindings), subscriptions: \(subscriptions)"
    }
  }
}

extension Atomic<Int> {
  @inlinable @inline(__always) func increment() { add(1, ordering: .relaxed) }
  @inlinable @inline(__always) func decrement() { subtract(1, ordering: .releasing) }
}
