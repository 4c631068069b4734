import ActorMVVMRuntimeShims
import ActorMVVMSupport

/// A feature's mailbox: a lock-protected buffer that senders append to and
/// the feature's actor drains a whole batch at a time.
///
/// - `push` never suspends. From one task, messages keep their order; from
///   several, they interleave in lock order.
/// - At most one drain is scheduled at a time (`scheduled`): the sender that
///   finds the mailbox idle starts a short-lived task on the feature's actor;
///   everyone else just appends. The task reduces batches in turns on the
///   actor, yielding between turns (see ``push(_:)`` and
///   ``Feature/drainTurn()``); it ends, releasing the schedule, on finding
///   the mailbox empty. An idle feature has no task parked.
/// - After `close`, pushes are dropped and counted: inputs as dropped,
///   effect inputs as discarded.
/// - A struct around one ``Locked``: copies share the same state (the lock's
///   storage), so the feature, its effect sink and its bindings all hold
///   the same mailbox without an extra object.
@usableFromInline
struct Mailbox<Machine: StateMachine>: Sendable {
  @usableFromInline typealias Input = Machine.Input

  @usableFromInline
  enum Message: Sendable {
    case input(Input)
    /// An input sent while a ``Cause`` was current.
    case caused(Input, Cause)
    case effect(EffectMessage<Input>)
  }

  @usableFromInline
  struct State {
    // The flags last, where they fill the tail beside the lock word
    // rather than padding a word of their own: 16 bytes less per mailbox.
    @usableFromInline var buffer: [Message] = []
    /// Bindings, output causes and the counts of dropped and discarded
    /// inputs, made by the first that needs them: a mailbox that has none
    /// pays one word.
    @usableFromInline var extras: Extras?
    /// Weak: the mailbox must not keep its feature alive.
    @usableFromInline weak var owner: Feature<Machine>?
    /// The feature's output relay, made by the first subscription to its
    /// outputs (or by its initialiser, for a bounded policy, or by
    /// `finish()`): an output emitted while it is nil had no subscriber.
    @usableFromInline var outputRelay: EventRelay<Machine.Output>?
    /// Outputs the feature has emitted (read by `emittedOutputCount`).
    @usableFromInline var emitted = 0
    @usableFromInline var scheduled = false
    @usableFromInline var closed = false
    /// Set by a drain turn that gave the actor back with messages pending;
    /// its task takes another turn after a yield.
    @usableFromInline var turnRequested = false

    @inlinable init() {}

    /// ``extras``, made now if needed.
    @inlinable
    mutating func madeExtras() -> Extras {
      if let extras { return extras }
      let made = Extras()
      extras = made
      return made
    }
  }

  /// What few mailboxes use. Reached only through ``State``, under the
  /// mailbox's lock, and never handed out of it.
  @usableFromInline
  final class Extras {
    @usableFromInline var dropped = 0
    @usableFromInline var discarded = 0
    @usableFromInline var late = 0
    @usableFromInline var nextBindingID: UInt64 = 0
    @usableFromInline var bindings: [UInt64: Task<Void, Never>] = [:]
    /// The relay of outputs with their causes, once someone subscribed
    /// (``Feature/outputsWithCauses()``).
    @usableFromInline var causedOutputs: EventRelay<CausedOutput<Machine.Output>>?
    /// The scope (``TaskScope``) bound where the feature was made, if any:
    /// a send from a thread with no binding (a Dispatch callback) starts
    /// its drain there, so a test bubble still counts it.
    @usableFromInline var scope: (any Sendable)?

    @inlinable init() {}
  }

  @usableFromInline let state: Locked<State>

  @inlinable init() { state = Locked(State()) }

  /// This mailbox's feature, as its effects' and bindings' ``EffectScope``
  /// names it: the identity of the lock storage, unique while it lives.
  @inlinable
  var host: UInt64 { UInt64(UInt(bitPattern: state.identity)) }

  /// Called once, from the feature's initialiser.
  @inlinable
  func attach(_ feature: Feature<Machine>) {
    let scope = TaskScope.preferred
    state.withLock { state in
      state.owner = feature
      if let scope { state.madeExtras().scope = scope }
    }
  }

  /// The scope the library's tasks for this feature start in: the sending
  /// task's binding, else the one bound where the feature was made. Nil in
  /// a process that never bound one (an app), after one relaxed load.
  @inlinable
  var scope: (any Sendable)? {
    if let preferred = TaskScope.preferred { return preferred }
    guard actormvvm_task_scope_is_ever_bound() else { return nil }
    return state.withLock { $0.extras?.scope }
  }

  @inlinable
  var droppedCount: Int { state.withLock { $0.extras?.dropped ?? 0 } }

  @inlinable
  var discardedCount: Int { state.withLock { $0.extras?.discarded ?? 0 } }

  @inlinable
  var lateCount: Int { state.withLock { $0.extras?.late ?? 0 } }

  /// Counts an effect input the feature discarded (stale, or sent late).
  @inlinable
  func countDiscarded(late: Bool) {
    state.withLock { state in
      let extras = state.madeExtras()
      extras.discarded += 1
      if late { extras.late += 1 }
    }
  }

  /// Subscribes to the outputs with their causes (the relay made with
  /// `make` if there is none yet), and reads how many outputs were emitted
  /// before, in one step under the lock ``noteOutput()`` takes: an output
  /// numbered above that count is accepted with the subscriber registered.
  func subscribeCausedOutputs(
    make: () -> EventRelay<CausedOutput<Machine.Output>>
  ) -> (emittedBefore: Int, values: EventRelay<CausedOutput<Machine.Output>>.Values) {
    state.withLock { state in
      let extras = state.madeExtras()
      let relay = extras.causedOutputs ?? make()
      extras.causedOutputs = relay
      let values = relay.values
      if state.closed { relay.finish() }  // the feature has finished: the sequence ends at once
      return (state.emitted, values)
    }
  }

  /// Counts `output`, hands it with its number and `cause` to the relay
  /// with causes if one was made, and returns the plain relay to deliver it
  /// to, if made. One lock for all, on the drain's path.
  ///
  /// The relay with causes accepts under the lock that
  /// ``subscribeCausedOutputs(make:)`` reads the count under: a subscriber
  /// registered with the count at n never receives number n, and receives
  /// every number above it (the mailbox's lock, then the relay's, in both).
  @inlinable
  func noteOutput(_ output: Machine.Output, cause: Cause?) -> EventRelay<Machine.Output>? {
    state.withLock { state in
      state.emitted &+= 1
      state.extras?.causedOutputs?.accept(CausedOutput(output: output, cause: cause, number: state.emitted))
      return state.outputRelay
    }
  }

  /// Outputs emitted so far.
  @inlinable
  var emittedCount: Int { state.withLock { $0.emitted } }

  /// The relay of outputs with their causes, if one was made.
  var madeCausedOutputRelay: EventRelay<CausedOutput<Machine.Output>>? {
    state.withLock { $0.extras?.causedOutputs }
  }

  /// The output relay, if one was made.
  @inlinable
  var madeOutputRelay: EventRelay<Machine.Output>? { state.withLock { $0.outputRelay } }

  /// The output relay: `made` is kept unless one was stored first (then
  /// that one is returned, and `made` is dropped).
  @inlinable
  func outputRelay(storingIfNone made: EventRelay<Machine.Output>) -> EventRelay<Machine.Output> {
    state.withLock { state in
      if let relay = state.outputRelay { return relay }
      state.outputRelay = made
      return made
    }
  }

  /// Appends `message`, scheduling a drain if none is scheduled.
  @inlinable
  func push(_ message: Message) {
    let feature = state.withLock { state -> Feature<Machine>? in
      if state.closed {
        switch message {
        case .input, .caused: state.madeExtras().dropped += 1
        case .effect(.sent): state.madeExtras().discarded += 1
        case .effect(.late):
          let extras = state.madeExtras()
          extras.discarded += 1
          extras.late += 1
        case .effect(.ended): break
        }
        return nil
      }
      state.buffer.append(message)
      guard !state.scheduled else { return nil }
      state.scheduled = true
      return state.owner
    }
    guard let feature else { return }
    // Weak, and re-read each turn: a scheduled drain must not keep a
    // released (or just finished) feature alive, not even while it yields;
    // once its last reference is gone, nothing is left to drain.
    //
    // Turns, and a yield between them: a drain that took every next batch
    // at once would, under a steady sender, take a few inputs at a time on
    // the other core, its lock and buffer lines bouncing between the two
    // cores on every take (with one sender, a fifth of the run's time went
    // to spinning on that lock). So a small batch ends the turn and the
    // yield lets the next one build up; a large batch is followed at once
    // (reducing it took long enough; going on overlaps the senders), up to
    // `batchesPerTurn`. Ending a turn also gives the actor and the thread
    // back: a feature that keeps itself busy (a reducer or binding that
    // never lets the mailbox empty) cannot hold its actor, so `finish()`
    // and readers get in.
    //
    // (The turn returns nothing and the loop asks the mailbox instead: with
    // the turn returning a `Bool`, the 6.3 optimiser stopped specialising
    // it in client modules, and every input paid generic metadata
    // look-ups.)
    let mailbox = self
    let turn: @Sendable () async -> Void = { [weak feature] in
      await feature?.drainTurn()
      while mailbox.takeTurnRequest() {
        await Task.yield()
        await feature?.drainTurn()
      }
    }
    // In a test bubble the turn prefers the bubble's counting executor.
    if let preferred = scope,
      TaskScope.task(preferring: preferred, named: "drain turn of Feature<\(Machine.self)>", immediate: false, turn)
        != nil
    {
      return
    }
    Task(operation: turn)
  }

  /// A batch smaller than this ends the drain's turn (``Feature/drainTurn()``).
  @inlinable static var smallBatch: Int { 64 }

  /// The most batches one turn of the drain reduces before it gives the actor back.
  @inlinable static var batchesPerTurn: Int { 16 }

  /// The drain's task asks, after each turn: true once (clearing the
  /// request) when the turn left messages for another.
  @inlinable
  func takeTurnRequest() -> Bool {
    state.withLock { state in
      defer { state.turnRequested = false }
      return state.turnRequested
    }
  }

  /// Swaps the pending messages into `batch` (which must be empty). When
  /// there are none and `release` is set, the scheduled drain ends here.
  @inlinable
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

  /// For an awaited input (``Feature/perform(_:)``): swaps the pending
  /// messages, if any, into `batch` (which must be empty) and returns true;
  /// once closed, counts the input dropped and returns false. One lock.
  @inlinable
  func takeBeforeAwaitedInput(into batch: inout [Message]) -> Bool {
    state.withLock { state in
      if state.closed {
        state.madeExtras().dropped += 1
        return false
      }
      if !state.buffer.isEmpty { swap(&state.buffer, &batch) }
      return true
    }
  }

  /// Ends a turn of the drain: when something is pending, asks its task
  /// for another turn (``takeTurnRequest()``) and returns true; when
  /// nothing is, releases the schedule and returns false.
  @inlinable
  func requestTurnIfPending() -> Bool {
    state.withLock { state in
      if state.buffer.isEmpty {
        state.scheduled = false
        return false
      }
      state.turnRequested = true
      return true
    }
  }

  /// Closes the mailbox: moves what is pending into `batch` and hands back
  /// the binding tasks, by id, for the caller to cancel.
  @inlinable
  func close(into batch: inout [Message]) -> [UInt64: Task<Void, Never>] {
    state.withLock { state in
      state.closed = true
      swap(&state.buffer, &batch)
      guard let extras = state.extras else { return [:] }
      defer { extras.bindings.removeAll() }
      return extras.bindings
    }
  }

  /// Starts a task that runs `body` for as long as the mailbox is open.
  /// Returns nil (and starts nothing) once closed.
  @inlinable
  func startBinding(
    counters: LifetimeCounters,
    _ body: @escaping @Sendable (Mailbox) async -> Void
  ) -> Task<Void, Never>? {
    let mailbox = self
    let host = self.host
    return state.withLock { state in
      guard !state.closed else { return nil }
      let extras = state.madeExtras()
      extras.nextBindingID &+= 1
      let id = extras.nextBindingID
      counters.bindingCount.increment()
      // Registered under the lock, so the task cannot deregister before it is registered.
      let binding: @Sendable () async -> Void = {
        await EffectScope.with(EffectScope(host: host, binding: id)) { await body(mailbox) }
        // Uncounted before it leaves the table: once `finish()` cannot see
        // it to wait for it, the count is exact.
        counters.bindingCount.decrement()
        _ = mailbox.state.withLock { $0.extras?.bindings.removeValue(forKey: id) }
      }
      let task =
        TaskScope.preferred.flatMap {
          TaskScope.task(preferring: $0, named: "binding of Feature<\(Machine.self)>", immediate: false, binding)
        }
        ?? Task(operation: binding)
      extras.bindings[id] = task
      return task
    }
  }
}
