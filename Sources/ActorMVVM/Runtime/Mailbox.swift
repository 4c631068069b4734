/// A feature's mailbox: a lock-protected buffer that senders append to and
/// the feature's actor drains a whole batch at a time.
///
/// - `push` never suspends. From one task, messages keep their order; from
///   several, they interleave in lock order.
/// - At most one drain is scheduled at a time (`scheduled`): the sender that
///   finds the mailbox idle starts a short-lived task on the feature's actor;
///   everyone else just appends. An idle feature has no task parked.
/// - After `close`, pushes are dropped and counted.
/// - A struct around one ``Locked``: copies share the same state (the lock's
///   storage), so the feature, its effect sink and its bindings all hold
///   the same mailbox without an extra object.
struct Mailbox<Machine: StateMachine>: EffectTaskRegistry {
  typealias Input = Machine.Input

  enum Message: Sendable {
    case input(Input)
    case effect(EffectMessage<Input>)
  }

  struct State {
    var buffer: [Message] = []
    var scheduled = false
    var closed = false
    var dropped = 0
    var nextBindingID: UInt64 = 0
    var bindings: [UInt64: Task<Void, Never>] = [:]
    /// The effect tasks not yet returned, by generation.
    var effects: [UInt64: Task<Void, Never>] = [:]
    /// Weak: the mailbox must not keep its feature alive.
    weak var owner: Feature<Machine>?
  }

  private let state = Locked(State())

  /// Called once, from the feature's initialiser.
  func attach(_ feature: Feature<Machine>) {
    state.withLock { $0.owner = feature }
  }

  var droppedCount: Int { state.withLock { $0.dropped } }

  /// Appends `message`, scheduling a drain if none is scheduled.
  func push(_ message: Message) {
    let feature = state.withLock { state -> Feature<Machine>? in
      if state.closed {
        if case .effect(.ended) = message {} else { state.dropped += 1 }
        return nil
      }
      state.buffer.append(message)
      guard !state.scheduled else { return nil }
      state.scheduled = true
      return state.owner
    }
    guard let feature else { return }
    Task { await feature.drain() }
  }

  /// Swaps the pending messages into `batch` (which must be empty). When
  /// there are none and `release` is set, the scheduled drain ends here.
  func take(into batch: inout [Message], release: Bool) -> Bool {
    state.withLock { state in
      if state.buffer.isEmpty {
        if release { state.scheduled = false }
        return false
      }
      swap(&state.buffer, &batch)
      return true
    }
  }

  /// Closes the mailbox: moves what is pending into `batch` and hands back
  /// the binding tasks for the caller to cancel.
  func close(into batch: inout [Message]) -> [Task<Void, Never>] {
    state.withLock { state in
      state.closed = true
      swap(&state.buffer, &batch)
      defer { state.bindings.removeAll() }
      return Array(state.bindings.values)
    }
  }

  // MARK: EffectTaskRegistry

  func insert(_ task: Task<Void, Never>, for generation: UInt64) {
    state.withLock { $0.effects[generation] = task }
  }

  func remove(_ generation: UInt64) {
    _ = state.withLock { $0.effects.removeValue(forKey: generation) }
  }

  func cancelAll() {
    let tasks = state.withLock { state in
      defer { state.effects.removeAll() }
      return Array(state.effects.values)
    }
    for task in tasks { task.cancel() }
  }

  /// Starts a task that runs `body` for as long as the mailbox is open.
  /// Returns nil (and starts nothing) once closed.
  func startBinding(
    counters: LifetimeCounters,
    _ body: @escaping @Sendable (Mailbox) async -> Void
  ) -> Task<Void, Never>? {
    let mailbox = self
    return state.withLock { state in
      guard !state.closed else { return nil }
      state.nextBindingID &+= 1
      let id = state.nextBindingID
      counters.bindingCount.increment()
      // Registered under the lock, so the task cannot deregister before it is registered.
      let task = Task {
        await body(mailbox)
        _ = mailbox.state.withLock { $0.bindings.removeValue(forKey: id) }
        counters.bindingCount.decrement()
      }
      state.bindings[id] = task
      return task
    }
  }
}
