import ActorMVVMSupport

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

  /// The four counts, then the flag below, in one allocation.
  @usableFromInline let words = AtomicWords.make(count: 5)
  @inlinable var featureCount: Count { Count(words: words, index: 0) }
  @inlinable var effectCount: Count { Count(words: words, index: 1) }
  @inlinable var bindingCount: Count { Count(words: words, index: 2) }
  @inlinable var subscriptionCount: Count { Count(words: words, index: 3) }
  /// Whether ``featureWaiters`` may be non-empty (1) or not (0): the deinit
  /// looks at the waiters only when it is set, so it costs one load otherwise.
  private static let featureWaiterFlag = 4

  /// Tasks in ``waitForFeatures(atMost:)``, and the count each waits for.
  private let featureWaiters = Locked<
    (next: UInt64, waiting: [(id: UInt64, atMost: Int, continuation: CheckedContinuation<Void, Never>)])
  >((0, []))

  /// A fresh set of counters, all zero: give one to the features of one test.
  public init() {}

  /// Returns once at most `count` features counted here are alive: the
  /// gate for "every feature was released", with no polling. Waits as long
  /// as it takes — a feature that is never released keeps it waiting — but
  /// returns at once when its task is cancelled, so a test's `.timeLimit`
  /// ends it (read ``features`` afterwards to know which way it returned).
  public func waitForFeatures(atMost count: Int) async {
    let id = featureWaiters.withLock { waiters -> UInt64 in
      waiters.next &+= 1
      return waiters.next
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let done = featureWaiters.withLock { waiters -> Bool in
          if Task.isCancelled { return true }
          // Raise the flag before reading the count: a release that misses
          // the flag has already lowered the count this reads.
          words.storeSequential(Self.featureWaiterFlag, 1)
          guard featureCount.loadSequential() > count else { return true }
          waiters.waiting.append((id, count, continuation))
          return false
        }
        if done { continuation.resume() }
      }
    } onCancel: {
      let waiter = featureWaiters.withLock { waiters -> CheckedContinuation<Void, Never>? in
        guard let index = waiters.waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.waiting.remove(at: index).continuation
      }
      waiter?.resume()
    }
  }

  /// A feature was deinitialised: counts it and wakes the waiters it satisfies.
  @usableFromInline
  func featureReleased() {
    featureCount.decrementSequential()
    guard words.loadSequential(Self.featureWaiterFlag) != 0 else { return }
    let ready = featureWaiters.withLock { waiters -> [CheckedContinuation<Void, Never>] in
      let alive = featureCount.loadSequential()
      let ready = waiters.waiting.filter { $0.atMost >= alive }.map { $0.continuation }
      waiters.waiting.removeAll { $0.atMost >= alive }
      return ready
    }
    for continuation in ready { continuation.resume() }
  }

  /// Features initialised and not yet deinitialised.
  public var features: Int { featureCount.loadAcquiring() }
  /// Effect tasks started and not yet returned.
  public var effects: Int { effectCount.loadAcquiring() }
  /// `bind(_:)` tasks started and not yet returned.
  public var bindings: Int { bindingCount.loadAcquiring() }
  /// Relay subscriptions registered and not yet ended.
  public var subscriptions: Int { subscriptionCount.loadAcquiring() }

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

extension LifetimeCounters {
  /// One of the counts: a word of ``LifetimeCounters/words``.
  @usableFromInline
  struct Count {
    @usableFromInline let words: AtomicWords
    @usableFromInline let index: Int

    @inlinable init(words: AtomicWords, index: Int) {
      self.words = words
      self.index = index
    }

    @inlinable @inline(__always) func increment() { words.addRelaxed(index, 1) }
    @inlinable @inline(__always) func decrement() { words.addReleasing(index, -1) }
    @inlinable func decrementSequential() { words.addSequential(index, -1) }
    @inlinable func loadAcquiring() -> Int { words.loadAcquiring(index) }
    @inlinable func loadSequential() -> Int { words.loadSequential(index) }
  }
}
