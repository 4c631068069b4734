/// Performs effects for a host (a ``Feature`` or a `FeatureTester`) and
/// keeps the books on the runs it started.
///
/// Each run gets a fresh generation. A run is *live* from its start until its
/// `ended` message is handled, or until it is cancelled or superseded. Inputs
/// from runs that are not live are stale and must be dropped by the host:
/// ``isLive(_:)`` is the check the host makes where results re-enter.
///
/// A value owned by one isolation domain (its host's actor, as a stored
/// `var`), which calls every method; a struct, so a feature pays no extra
/// allocation for it. The tasks it starts are not isolated to that
/// actor: they run concurrently with it.
package struct EffectRunner<Input: Sendable, Output: Sendable, Registry: EffectTaskRegistry> {
  private var nextGeneration: UInt64 = 0
  /// Live runs.
  private var live: [UInt64: Task<Void, Never>] = [:]
  /// Cancelled runs whose tasks have not returned yet.
  private var winding: [UInt64: Task<Void, Never>] = [:]
  private var generationOfID: [AnyCancelID: UInt64] = [:]
  private var idOfGeneration: [UInt64: AnyCancelID] = [:]
  private let counters: LifetimeCounters
  private let sink: @Sendable (EffectMessage<Input>) -> Void
  /// Every task not yet returned, also reachable from other isolation
  /// domains (a feature's `deinit`) to cancel them.
  /// (Generic rather than an existential: a feature stores its runner
  /// inline, and a concrete registry is one word instead of five.)
  private let tasks: Registry

  package init(
    counters: LifetimeCounters, tasks: Registry,
    sink: @escaping @Sendable (EffectMessage<Input>) -> Void
  ) {
    self.counters = counters
    self.tasks = tasks
    self.sink = sink
  }

  /// Runs that are live.
  package var liveCount: Int { live.count }

  /// Tasks that have not returned yet: live runs plus cancelled ones still winding down.
  package var activeCount: Int { live.count + winding.count }

  /// Whether results of the run with `generation` may still land.
  @inline(__always)
  package func isLive(_ generation: UInt64) -> Bool { live[generation] != nil }

  /// Performs `effect`: outputs go to `emit` synchronously and in order;
  /// runs start; cancellations cancel.
  package mutating func perform(_ effect: Effect<Input, Output>, emit: (Output) -> Void) {
    switch effect.kind {
    case .none: break
    case .emit(let output): emit(output)
    case .run(let run): start(run)
    case .cancel(let id):
      if let generation = generationOfID[id] { cancel(generation) }
    case .merge(let effects):
      for effect in effects { perform(effect, emit: emit) }
    }
  }

  /// Handles a run's `ended` message.
  package mutating func ended(_ generation: UInt64) {
    tasks.remove(generation)
    if live.removeValue(forKey: generation) != nil {
      forgetID(of: generation)
    } else {
      winding.removeValue(forKey: generation)
    }
  }

  /// Cancels every run and hands back all tasks not yet returned, for the
  /// host to await.
  package mutating func cancelAll() -> [Task<Void, Never>] {
    let tasks = Array(live.values) + Array(winding.values)
    live.removeAll()
    winding.removeAll()
    generationOfID.removeAll()
    idOfGeneration.removeAll()
    self.tasks.cancelAll()
    return tasks
  }

  private mutating func start(_ run: Effect<Input, Output>.Run) {
    if let id = run.id, let running = generationOfID[id] { cancel(running) }
    nextGeneration &+= 1
    let generation = nextGeneration
    let send = Send(generation: generation, sink: sink)
    let operation = run.operation
    let sink = self.sink
    let counters = self.counters
    counters.effectCount.increment()
    // Created in a nonisolated context: the task does not run on the host's actor.
    let task = Task(priority: run.priority) {
      await operation(send)
      sink(.ended(generation: generation))
      counters.effectCount.decrement()
    }
    live[generation] = task
    tasks.insert(task, for: generation)
    if let id = run.id {
      generationOfID[id] = generation
      idOfGeneration[generation] = id
    }
  }

  private mutating func cancel(_ generation: UInt64) {
    guard let task = live.removeValue(forKey: generation) else { return }
    forgetID(of: generation)
    task.cancel()
    winding[generation] = task
  }

  private mutating func forgetID(of generation: UInt64) {
    if let id = idOfGeneration.removeValue(forKey: generation), generationOfID[id] == generation {
      generationOfID.removeValue(forKey: id)
    }
  }
}

/// Where an ``EffectRunner`` registers the tasks it starts, so that code in
/// another isolation domain (a feature's nonisolated `deinit`) can cancel
/// them. A feature's mailbox is its registry (one lock for both); tests
/// use a ``TaskBag``.
package protocol EffectTaskRegistry: Sendable {
  func insert(_ task: Task<Void, Never>, for generation: UInt64)
  func remove(_ generation: UInt64)
  func cancelAll()
}

/// A stand-alone ``EffectTaskRegistry``: tasks by generation behind a lock.
package final class TaskBag: EffectTaskRegistry {
  private let tasks = Locked<[UInt64: Task<Void, Never>]>([:])

  package init() {}

  package func insert(_ task: Task<Void, Never>, for generation: UInt64) {
    tasks.withLock { $0[generation] = task }
  }

  package func remove(_ generation: UInt64) {
    _ = tasks.withLock { $0.removeValue(forKey: generation) }
  }

  /// Cancels every task and forgets them.
  package func cancelAll() {
    let all = tasks.withLock { tasks in
      defer { tasks.removeAll() }
      return Array(tasks.values)
    }
    for task in all { task.cancel() }
  }
}
