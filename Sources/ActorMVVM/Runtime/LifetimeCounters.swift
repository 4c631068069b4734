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
/// reading is a snapshot. Effects, bindings and subscriptions are exact once
/// `await feature.finish()` returns. ``features`` counts deinitialisation,
/// which can come a moment after the last `finish()`: a drain task the
/// feature scheduled before it finished may still hold it while it runs. A
/// test that needs it at zero awaits ``waitForFeatures(atMost:)``.
public final class LifetimeCounters: Sendable {
  /// The counters used when none is injected.
  public static let shared = LifetimeCounters()

  @usableFromInline let featureCount = Atomic<Int>(0)
  @usableFromInline let effectCount = Atomic<Int>(0)
  @usableFromInline let bindingCount = Atomic<Int>(0)
  @usableFromInline let subscriptionCount = Atomic<Int>(0)

  /// Tasks in ``waitForFeatures(atMost:)``, and the count each waits for.
  private let featureWaiters = Mutex<[(id: UInt64, atMost: Int, continuation: CheckedContinuation<Void, Never>)]>([])
  private let nextWaiter = Atomic<UInt64>(0)
  /// Whether ``featureWaiters`` may be non-empty: the deinit looks at the
  /// waiters only when it is set, so it costs one load otherwise.
  private let featureWaiterFlag = Atomic<Bool>(false)

  /// A fresh set of counters, all zero: give one to the features of one test.
  public init() {}

  /// Returns once at most `count` features counted here are alive: the
  /// gate for "every feature was released", with no polling. Waits as long
  /// as it takes — a feature that is never released keeps it waiting — but
  /// returns at once when its task is cancelled, so a test's `.timeLimit`
  /// ends it (read ``features`` afterwards to know which way it returned).
  public func waitForFeatures(atMost count: Int) async {
    let id = nextWaiter.add(1, ordering: .relaxed).newValue
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let done = featureWaiters.withLock { waiters -> Bool in
          if Task.isCancelled { return true }
          // Raise the flag before reading the count: a release that misses
          // the flag has already lowered the count this reads.
          featureWaiterFlag.store(true, ordering: .sequentiallyConsistent)
          guard featureCount.load(ordering: .sequentiallyConsistent) > count else { return true }
          waiters.append((id, count, continuation))
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      let waiter = featureWaiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
      }
      waiter?.resume()
    }
  }

  /// A feature was deinitialised: counts it and wakes the waiters it satisfies.
  @usableFromInline
  func featureReleased() {
    featureCount.subtract(1, ordering: .sequentiallyConsistent)
    guard featureWaiterFlag.load(ordering: .sequentiallyConsistent) else { return }
    let ready = featureWaiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
      let alive = featureCount.load(ordering: .sequentiallyConsistent)
      let ready = waiters.filter { $0.atMost >= alive }.map { $0.continuation }
      waiters.removeAll { $0.atMost >= alive }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

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
