import ActorMVVM
import ActorMVVMSupport

/// The storage half of every multi-task operator (STYLE §3): one lock
/// around the operator's state machine and its output, the consumer's
/// parking place, and the tasks that feed it (upstream pumps, inner
/// sequences, timers).
///
/// - **Arrival order.** Every event is handled the moment it is delivered,
///   under the lock, whether or not the consumer is waiting; the consumer
///   drains what was emitted, a batch at a time.
/// - **Backpressure.** Once `capacity` elements wait for the consumer, a
///   pump stops pulling its upstream until the consumer drains them. Time
///   operators are exact while the consumer is fewer than `capacity`
///   elements behind.
/// - **Termination.** When the machine ends the operator, or the consumer
///   is cancelled or drops its iterator, every task is cancelled and every
///   parked producer released; nothing is delivered after that.
/// - **Tests.** An operator's tasks start through `TaskScope`, so in a test
///   bubble they prefer the bubble's counting executor: the virtual-time
///   tools see them as they see a feature's, and the bubble's end names one
///   still running.
@usableFromInline
final class OperatorCore<Machine: OperatorStateMachine>: Sendable {
  @usableFromInline typealias Element = Machine.Element

  @usableFromInline
  struct State {
    @usableFromInline var machine: Machine
    @usableFromInline var output = OperatorOutput<Element>()
    @usableFromInline var consumer: UnsafeContinuation<Void, Never>?
    @usableFromInline var blocked: [UnsafeContinuation<Bool, Never>] = []
    @usableFromInline var tasks: [UInt64: Feeder] = [:]
    @usableFromInline var nextTaskID: UInt64 = 0
    /// The task in the replaceable slot (flatMapLatest's current inner).
    @usableFromInline var slot: UInt64?
    /// The work the slot's task runs, while that task has not started it:
    /// a newer ``spawnLatest(_:)`` replaces it instead of starting a task.
    @usableFromInline var slotWork: (@Sendable (OperatorCore) async -> Void)?
    /// Set once the operator is over for its producers: ended by the
    /// machine, or abandoned by the consumer.
    @usableFromInline var closed = false

    @inlinable init(machine: Machine) { self.machine = machine }
  }

  /// A feeding task: reserved while `spawn` creates it, then running.
  @usableFromInline
  enum Feeder {
    case reserved
    case running(Task<Void, Never>)
  }

  /// What a delivery did.
  @usableFromInline
  struct Delivery {
    @usableFromInline let command: Machine.Command?
    /// False once the operator is over: the producer should stop.
    @usableFromInline let open: Bool
    /// `capacity` elements wait for the consumer: the producer should call
    /// ``waitForRoom()`` before pulling again.
    @usableFromInline let full: Bool

    @inlinable init(command: Machine.Command?, open: Bool, full: Bool = false) {
      self.command = command
      self.open = open
      self.full = full
    }
  }

  /// What the consumer found.
  @usableFromInline
  enum Receipt {
    case elements
    case finished
    case failed(any Error)
  }

  @usableFromInline let state: Locked<State>
  @usableFromInline let capacity: Int

  @inlinable
  init(_ machine: Machine, capacity: Int = 128) {
    state = Locked(State(machine: machine))
    self.capacity = capacity
  }

  // MARK: Producers

  /// Starts a feeding task, unless the operator is over. With `replacing`,
  /// the task takes the operator's one replaceable slot and cancels the
  /// task that held it (a superseded inner sequence).
  ///
  /// With `immediate`, where the platform has `Task.immediate`, the task
  /// starts running in the caller (itself one of this operator's tasks);
  /// at its first call to a nonisolated async function it is enqueued on
  /// the global executor like any task. Measured slightly faster for the
  /// short-lived timers and inner sequences; upstream pumps, started from
  /// the consumer, measured slower that way and start normally.
  @inlinable
  func spawn(immediate: Bool = false, _ body: @escaping @Sendable (OperatorCore) async -> Void) {
    let reserved = state.withLock { state -> UInt64? in
      guard !state.closed else { return nil }
      state.nextTaskID &+= 1
      state.tasks[state.nextTaskID] = .reserved
      return state.nextTaskID
    }
    guard let id = reserved else { return }
    start(id, immediate: immediate) { core in await body(core) }
  }

  /// Runs `body` in the operator's one replaceable slot, superseding the
  /// work there (flatMapLatest's inner sequences). If the slot's task has
  /// not started its work yet, `body` takes that work's place and no task
  /// is started: under a burst of outer elements, one task runs the
  /// latest inner instead of one task per element being started and
  /// cancelled. Otherwise the running task is cancelled and a new one
  /// started. Superseded work never runs, as a cancelled inner would have
  /// emitted nothing. Called by one task at a time (flatMapLatest's outer
  /// pump), so each call's task is registered before the next call looks
  /// at the slot.
  @inlinable
  func spawnLatest(_ body: @escaping @Sendable (OperatorCore) async -> Void) {
    let reserved = state.withLock { state -> (id: UInt64, replaced: Task<Void, Never>?)? in
      guard !state.closed else { return nil }
      if state.slot != nil, state.slotWork != nil {
        state.slotWork = body  // the slot's task has not begun: it will run this instead
        return nil
      }
      state.nextTaskID &+= 1
      let id = state.nextTaskID
      state.tasks[id] = .reserved
      var replaced: Task<Void, Never>?
      if let old = state.slot, case .running(let task)? = state.tasks.removeValue(forKey: old) { replaced = task }
      state.slot = id
      state.slotWork = body
      return (id, replaced)
    }
    guard let (id, replaced) = reserved else { return }
    replaced?.cancel()
    start(id, immediate: false) { core in
      let work = core.state.withLock { state -> (@Sendable (OperatorCore) async -> Void)? in
        guard state.slot == id, !state.closed else { return nil }
        defer { state.slotWork = nil }
        return state.slotWork
      }
      await work?(core)
    }
  }

  /// Starts the task reserved under `id`.
  @inlinable
  func start(_ id: UInt64, immediate: Bool, _ body: @escaping @Sendable (OperatorCore) async -> Void) {
    let operation: @Sendable () async -> Void = {
      await body(self)
      self.state.withLock { state in
        state.tasks.removeValue(forKey: id)
        if state.slot == id { state.slot = nil }
      }
    }
    // In a test bubble the pump prefers the bubble's counting executor.
    var started = TaskScope.preferred.flatMap {
      TaskScope.task(preferring: $0, named: "operator task \(id)", immediate: immediate, operation)
    }
    #if !ACTORMVVM_APPLE_BELOW_26
      if started == nil, immediate, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        started = Task.immediate(operation: operation)
      }
    #endif
    let task = started ?? Task(operation: operation)
    // Register the handle, unless the operator closed meanwhile (then
    // cancel it: closing cancelled only the tasks it could see, and it
    // wiped the reservation) or the task has already ended (it ran to
    // completion inline).
    let cancel = state.withLock { state -> Bool in
      if state.closed {
        state.tasks.removeValue(forKey: id)
        return true
      }
      guard case .reserved? = state.tasks[id] else { return false }
      state.tasks[id] = .running(task)
      return false
    }
    if cancel { task.cancel() }
  }

  /// Hands `event` to the machine now and wakes the consumer if the machine
  /// emitted or ended. The caller performs the returned command.
  @inlinable
  func deliver(_ event: Machine.Event) -> Delivery {
    var ended: [Task<Void, Never>] = []
    let (delivery, consumer) = state.withLock { state -> (Delivery, UnsafeContinuation<Void, Never>?) in
      guard !state.closed else { return (Delivery(command: nil, open: false), nil) }
      let command = state.machine.handle(event, output: &state.output)
      if state.output.end != nil {
        state.closed = true
        ended = state.tasks.values.compactMap { $0.task }
        state.tasks = [:]
      }
      guard !state.output.elements.isEmpty || state.output.end != nil else {
        return (Delivery(command: command, open: true), nil)
      }
      defer { state.consumer = nil }
      let full = state.output.elements.count >= capacity
      return (Delivery(command: command, open: !state.closed, full: full), state.consumer)
    }
    if let consumer {
      consumer.resume()
    }
    // The machine has ended: the feeding tasks (the caller's included) stop.
    for task in ended { task.cancel() }
    return delivery
  }

  /// Waits while `capacity` elements are waiting for the consumer. Returns
  /// false once the operator is over.
  @inlinable
  func waitForRoom() async -> Bool {
    let full = state.withLock { state -> Bool? in
      if state.closed { return nil }
      return state.output.elements.count >= capacity
    }
    guard let full else { return false }
    guard full else { return true }
    return await withUnsafeContinuation { (producer: UnsafeContinuation<Bool, Never>) in
      let outcome = state.withLock { state -> Bool? in
        if state.closed { return false }
        if state.output.elements.count < capacity { return true }
        state.blocked.append(producer)
        return nil
      }
      if let outcome { producer.resume(returning: outcome) }
    }
  }

  // MARK: Consumer

  /// Swaps the emitted elements into `batch` (which must be empty), parking
  /// until there are some or the operator has ended.
  @inlinable
  func receive(into batch: inout [Element], isolation actor: isolated (any Actor)? = #isolation) async -> Receipt {
    while true {
      if let receipt = take(into: &batch) { return receipt }
      await withUnsafeContinuation(isolation: actor) { (consumer: UnsafeContinuation<Void, Never>) in
        let ready = state.withLock { state -> Bool in
          if !state.output.elements.isEmpty || state.output.end != nil || state.closed { return true }
          state.consumer = consumer
          return false
        }
        if ready { consumer.resume() }
      }
      if state.withLock({ $0.closed && $0.output.end == nil && $0.output.elements.isEmpty }) {
        return .finished  // terminated by the consumer's own cancellation
      }
    }
  }

  /// Swaps the emitted elements into `batch` (which must be empty) without
  /// waiting, releasing parked producers; nil if nothing was emitted and
  /// the operator has not ended.
  @inlinable
  func take(into batch: inout [Element]) -> Receipt? {
    let (receipt, released) = state.withLock { state -> (Receipt?, [UnsafeContinuation<Bool, Never>]) in
      if !state.output.elements.isEmpty {
        swap(&state.output.elements, &batch)
        defer { state.blocked = [] }
        return (.elements, state.blocked)
      }
      switch state.output.end {
      case .finished?: return (.finished, [])
      case .failed(let error)?: return (.failed(error), [])
      case nil: return (nil, [])
      }
    }
    for producer in released {
      producer.resume(returning: true)
    }
    return receipt
  }

  /// The consumer is gone (cancelled, or dropped its iterator): cancels
  /// every feeding task and releases every parked producer. Idempotent.
  @inlinable
  func terminate() {
    let (tasks, blocked, consumer) = state.withLock { state in
      state.closed = true
      defer {
        state.tasks = [:]
        state.blocked = []
        state.consumer = nil
        state.output.elements = []
      }
      return (state.tasks.values.compactMap { $0.task }, state.blocked, state.consumer)
    }
    for task in tasks { task.cancel() }
    for producer in blocked {
      producer.resume(returning: false)
    }
    if let consumer {
      consumer.resume()
    }
  }
}

extension OperatorCore.Feeder {
  @inlinable var task: Task<Void, Never>? {
    if case .running(let task) = self { task } else { nil }
  }
}

/// Holds an operator's core for as long as its iterator lives: dropping the
/// iterator terminates the operator, cancelling its tasks.
@usableFromInline
final class OperatorLifetime<Machine: OperatorStateMachine>: Sendable {
  @usableFromInline let core: OperatorCore<Machine>
  @inlinable init(_ core: OperatorCore<Machine>) { self.core = core }
  deinit { core.terminate() }
}

/// The consumer's side of an operator: its drained batch and the terminal
/// state every operator shares. After the operator finishes, throws, or
/// the consumer is cancelled, `next()` returns nil forever.
@usableFromInline
struct OperatorReader<Machine: OperatorStateMachine> {
  @usableFromInline enum Phase { case initial, running, done }

  @usableFromInline var lifetime: OperatorLifetime<Machine>?
  @usableFromInline var batch = Batch<Machine.Element>()
  @usableFromInline var phase = Phase.initial
  /// The one upstream the consumer pulls itself, when the operator has no
  /// other that needs a task (see ``OperatorCore/start(_:)``).
  @usableFromInline var inline: InlinePull<Machine>?

  @inlinable init() {}

  /// The next element: from the drained batch when it has one (inlined
  /// into the iterator), else from ``refill(start:failure:isolation:)``.
  @inlinable @inline(__always)
  mutating func next<Failure: Error>(
    start: () -> OperatorCore<Machine>,
    failure: Failure.Type,
    isolation actor: isolated (any Actor)? = #isolation
  ) async throws(Failure) -> Machine.Element? {
    try await next(starting: { (start(), nil) }, failure: failure, isolation: actor)
  }

  /// Whether the operator has started: an iterator whose start needs its
  /// upstreams then calls ``next(failure:isolation:)``, so it does not copy
  /// them into a start closure on every call.
  @inlinable var isStarted: Bool { phase != .initial }

  /// The next element of an operator that has started.
  @inlinable @inline(__always)
  mutating func next<Failure: Error>(
    failure: Failure.Type, isolation actor: isolated (any Actor)? = #isolation
  ) async throws(Failure) -> Machine.Element? {
    try await next(
      starting: { preconditionFailure("OperatorReader.next(failure:): the operator has not started") },
      failure: failure, isolation: actor)
  }

  /// ``next(start:failure:isolation:)`` for an operator whose start may
  /// leave one upstream for the consumer to pull.
  @inlinable @inline(__always)
  mutating func next<Failure: Error>(
    starting start: () -> (OperatorCore<Machine>, InlinePull<Machine>?),
    failure: Failure.Type,
    isolation actor: isolated (any Actor)? = #isolation
  ) async throws(Failure) -> Machine.Element? {
    // Cancellation is honoured at every call, also while draining a batch.
    if let element = batch.pop(), !Task.isCancelled { return element }
    return try await refill(start: start, failure: failure, isolation: actor)
  }

  /// Starts the operator on the first call (creates the core and lets
  /// `start` feed it), then waits for the next batch, or pulls the inline
  /// upstream until the machine emits or ends.
  @inlinable
  mutating func refill<Failure: Error>(
    start: () -> (OperatorCore<Machine>, InlinePull<Machine>?),
    failure: Failure.Type,
    isolation actor: isolated (any Actor)?
  ) async throws(Failure) -> Machine.Element? {
    switch phase {
    case .done: return nil
    case .initial:
      let (core, inline) = start()
      lifetime = OperatorLifetime(core)
      self.inline = inline
      phase = .running
    case .running: break
    }
    if Task.isCancelled { return end() }
    batch.reset()
    let core = lifetime.unsafelyUnwrapped.core
    let receipt: OperatorCore<Machine>.Receipt
    if let inline {
      while true {
        if let taken = core.take(into: &batch.items) {
          receipt = taken
          break
        }
        // A cancelled upstream's nil is not its end: the consumer is gone.
        guard await inline(core), !Task.isCancelled else { return end() }
      }
    } else {
      receipt = await withTaskCancellationHandler(
        operation: { await core.receive(into: &batch.items, isolation: actor) },
        onCancel: { core.terminate() },
        isolation: actor)
    }
    switch receipt {
    case .elements:
      if Task.isCancelled { return end() }
      return batch.pop()
    case .finished:
      return end()
    case .failed(let error):
      _ = end()
      // Only upstreams fail the machine, and they throw `Failure`.
      throw error as! Failure
    }
  }

  @inlinable
  mutating func end() -> Machine.Element? {
    phase = .done
    lifetime?.core.terminate()
    lifetime = nil
    inline = nil
    batch = Batch()
    return nil
  }
}

/// An operator's upstream pulled by the consumer itself, in its own task
/// and isolation, as an element-wise stage pulls its base: what an operator
/// over several upstreams does with the only one that needs a task, when
/// the others are immediate (`combineLatest(AsyncJust(1), relay.values)`).
/// One call pulls one element, or the end, and delivers it to the machine;
/// it returns false when the upstream ended because the consumer was
/// cancelled (a cancelled upstream's nil is not its end). It runs in the
/// caller's isolation (`nonisolated(nonsending)`), so an actor-isolated
/// consumer pulls without a hop. Owned by one iterator; never shared.
///
/// A closure made where the upstream's type is concrete, so the pull is
/// specialised (a generic class's overridden method would be called
/// through its vtable, which holds the unspecialised implementation).
@usableFromInline
typealias InlinePull<Machine: OperatorStateMachine> = nonisolated(nonsending) (OperatorCore<Machine>) async -> Bool

/// An ``InlinePull`` over `upstream`.
@inlinable
func inlinePull<Sequence: AsyncSequence, Machine: OperatorStateMachine>(
  _ upstream: Sequence, wrap: @escaping (Sequence.Element) -> Machine.Event,
  end: @escaping ((any Error)?) -> Machine.Event
) -> InlinePull<Machine> {
  var iterator = upstream.makeAsyncIterator()
  return { core in
    do {
      if let element = try await iterator.next(isolation: #isolation) {
        _ = core.deliver(wrap(element))
        return true
      }
      if Task.isCancelled { return false }
      _ = core.deliver(end(nil))
    } catch {
      if Task.isCancelled { return false }
      _ = core.deliver(end(error))
    }
    return true
  }
}

/// One upstream of an operator over several (combineLatest, zip, merge),
/// before the operator starts: see ``OperatorCore/start(_:)``.
@usableFromInline
struct Upstream<Machine: OperatorStateMachine> {
  /// An ``ImmediateAsyncSequence``'s elements, or nil for any other sequence.
  @usableFromInline let deliverAtOnce: ((OperatorCore<Machine>) -> Void)?
  @usableFromInline let spawnPump: (OperatorCore<Machine>) -> Void
  @usableFromInline let makeInline: () -> InlinePull<Machine>

  @inlinable
  init<Sequence: AsyncSequence & Sendable>(
    _ upstream: Sequence, wrap: @escaping @Sendable (Sequence.Element) -> Machine.Event,
    end: @escaping @Sendable ((any Error)?) -> Machine.Event
  ) where Sequence.Element: Sendable {
    // An unconstrained cast: a check the optimiser folds for a concrete
    // type (a cast to `any ImmediateAsyncSequence<Element>` is an extended
    // existential, demangled at run time on every cast).
    if let immediate = upstream as? any ImmediateAsyncSequence {
      let elements = immediateElements(of: immediate, as: Sequence.Element.self)
      deliverAtOnce = { core in
        for element in elements {
          guard core.deliver(wrap(element)).open else { return }
        }
        _ = core.deliver(end(nil))
      }
    } else {
      deliverAtOnce = nil
    }
    spawnPump = { core in
      core.spawn { core in await pump(upstream, into: core, wrap: wrap, end: end, perform: { _, _ in }) }
    }
    makeInline = { inlinePull(upstream, wrap: wrap, end: end) }
  }
}

/// `sequence`'s elements as `[Element]`, which they are (`sequence` is the
/// upstream whose element type is `Element`, opened from its existential).
@inlinable
func immediateElements<Sequence: ImmediateAsyncSequence, Element>(of sequence: Sequence, as: Element.Type) -> [Element]
{
  sequence.immediateElements as! [Element]
}

extension OperatorCore {
  /// Feeds the machine its upstreams, in order: an immediate one's
  /// elements and end at once, in the caller, with no task (as RxSwift
  /// subscribes to a `just`). If exactly one is not immediate, it is
  /// returned for the consumer to pull (no task at all); otherwise each
  /// such upstream gets a pump task.
  @inlinable
  func start(_ upstreams: [Upstream<Machine>]) -> InlinePull<Machine>? {
    let pumped = upstreams.filter { $0.deliverAtOnce == nil }
    for upstream in upstreams { upstream.deliverAtOnce?(self) }
    if pumped.count == 1 { return pumped[0].makeInline() }
    for upstream in pumped { upstream.spawnPump(self) }
    return nil
  }
}

/// Iterates `upstream` in the calling task (one of the core's feeding
/// tasks), delivering each element through `wrap` and then its end or
/// error through `end`; performs each returned command with `perform`.
@inlinable
func pump<Upstream: AsyncSequence, Machine: OperatorStateMachine>(
  _ upstream: Upstream,
  into core: OperatorCore<Machine>,
  wrap: (Upstream.Element) -> Machine.Event,
  end: (_ error: (any Error)?) -> Machine.Event,
  perform: (Machine.Command, OperatorCore<Machine>) -> Void
) async {
  (upstream as? any OperatorUpstream)?.markOperatorUpstream()
  var iterator = upstream.makeAsyncIterator()
  do {
    while let element = try await iterator.next() {
      let delivery = core.deliver(wrap(element))
      if let command = delivery.command { perform(command, core) }
      guard delivery.open else { return }
      if delivery.full, await !core.waitForRoom() { return }
    }
    if Task.isCancelled { return }  // a cancelled upstream's nil is not its end
    let delivery = core.deliver(end(nil))
    if let command = delivery.command { perform(command, core) }
  } catch {
    if Task.isCancelled { return }
    let delivery = core.deliver(end(error))
    if let command = delivery.command { perform(command, core) }
  }
}

extension OperatorReader {
  /// The next element of an operator over two upstreams (combineLatest,
  /// merge, zip): on the first call, starts the machine `make()` builds and
  /// feeds it both upstreams (``OperatorCore/start(_:)``: immediate ones at
  /// once, one left alone pulled by the consumer, else pump tasks),
  /// delivering `wrapA`/`wrapB` of each element and
  /// `endA`/`endB` of each end or error.
  @inlinable @inline(__always)
  mutating func next<A: AsyncSequence & Sendable, B: AsyncSequence & Sendable>(
    _ a: A, wrap wrapA: @escaping @Sendable (A.Element) -> Machine.Event,
    end endA: @escaping @Sendable ((any Error)?) -> Machine.Event,
    _ b: B, wrap wrapB: @escaping @Sendable (B.Element) -> Machine.Event,
    end endB: @escaping @Sendable ((any Error)?) -> Machine.Event,
    make: () -> Machine, isolation actor: isolated (any Actor)?
  ) async throws(A.Failure) -> Machine.Element? where A.Element: Sendable, B.Element: Sendable {
    try await next(
      starting: {
        let core = OperatorCore(make())
        return (core, core.start([Upstream(a, wrap: wrapA, end: endA), Upstream(b, wrap: wrapB, end: endB)]))
      }, failure: A.Failure.self, isolation: actor)
  }
}

/// Whether `sequence` is a `ReplayingAsyncSequence` with a current element:
/// an iteration started now begins with it, as Rx's `BehaviorRelay` emits
/// inside `subscribe`. Operators that subscribe in Rx's order use it to
/// order that first element before another upstream's. (The cast folds
/// when specialised.)
@inlinable
func replaysNow<Sequence: AsyncSequence>(_ sequence: Sequence) -> Bool {
  guard let replaying = sequence as? any ReplayingAsyncSequence else { return false }
  return hasCurrentElement(replaying)
}

@inlinable
func hasCurrentElement<Replaying: ReplayingAsyncSequence>(_ sequence: Replaying) -> Bool {
  sequence.currentElement != nil
}

/// The elements an iteration of `sequence` started now begins with before
/// it could wait: a replaying sequence's ``ReplayingAsyncSequence/elementsAtStart``,
/// an immediate one's elements (Rx's `just` and `from`), none otherwise.
@inlinable
func startElements<Sequence: AsyncSequence>(of sequence: Sequence) -> [Sequence.Element] {
  if let replaying = sequence as? any ReplayingAsyncSequence {
    func elements<Replaying: ReplayingAsyncSequence>(_ replaying: Replaying) -> [Any] { replaying.elementsAtStart }
    return elements(replaying).compactMap { $0 as? Sequence.Element }
  }
  if let immediate = sequence as? any ImmediateAsyncSequence {
    func elements<Immediate: ImmediateAsyncSequence>(_ immediate: Immediate) -> [Any] { immediate.immediateElements }
    return elements(immediate).compactMap { $0 as? Sequence.Element }
  }
  return []
}
