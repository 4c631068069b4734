import ActorMVVMSupport

/// Counts work in flight and publishes whether any is: Rx's
/// `ActivityIndicator` / `trackActivity`.
///
/// ```swift
/// let activity = ActivityTracker()
/// feature.bind(activity.isLoadingValues.map(Input.loadingChanged))
/// let route = try await activity.track { try await directions.route(from: a, to: b) }
/// ```
///
/// - `track` increments the count before the work starts and decrements it
///   when the work returns, throws or is cancelled, so the count always
///   balances; overlapping work keeps `isLoading` true until the last ends.
/// - ``isLoadingValues`` / ``isLoadingStream`` are ``StateRelay`` subscriptions:
///   they start with the current value, then deliver only changes
///   (`false → true → false`), conflated for slow readers.
/// - `Sendable`; `track` may be called from any task, concurrently.
public final class ActivityTracker: Sendable {
  private let count = Locked(0)
  private let relay: StateRelay<Bool>

  /// Creates a tracker that is not loading.
  /// - Parameter counters: where the tracker's relay subscriptions are counted.
  public init(counters: LifetimeCounters = .shared) {
    relay = StateRelay(false, counters: counters)
  }

  /// Whether any tracked work is in flight.
  public var isLoading: Bool { relay.value }

  /// Tracked work in flight right now.
  public var inFlight: Int { count.withLock { $0 } }

  /// `isLoading` changes, through the relay's own sequence.
  public var isLoadingValues: StateRelay<Bool>.Values { relay.values }

  /// `isLoading` changes, as an `AsyncStream`.
  public var isLoadingStream: AsyncStream<Bool> { relay.stream }

  /// Runs `work`, counting it as in flight until it returns, throws or is cancelled.
  public func track<T, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ work: () async throws(Failure) -> sending T
  ) async throws(Failure) -> sending T {
    begin()
    defer { end() }
    return try await work()
  }

  private func begin() {
    // Publish under the count's lock so changes reach the relay in order.
    count.withLock { count in
      count += 1
      if count == 1 { relay.accept(true) }
    }
  }

  private func end() {
    count.withLock { count in
      count -= 1
      if count == 0 { relay.accept(false) }
    }
  }
}
