/// Runs a ``StateMachine``: the actor behind every screen.
///
/// ```swift
/// let feature = Feature(Counter(), initialState: .init())
/// feature.send(.incrementTapped)            // never blocks, callable anywhere
/// for await state in feature.states { … }   // current state first, then changes
/// for await output in feature.outputs { … } // every output, in order
/// await feature.finish()                    // cancels effects, ends streams
/// ```
///
/// ## Guarantees
/// 1. **Mailbox order.** Inputs are reduced one at a time, in the order they
///    were sent from any one task. `reduce` is synchronous, so no `await`
///    interleaves two transitions. The drain reduces in turns and yields
///    between them, so a feature kept busy never holds its actor.
/// 2. **No lost inputs.** Every input sent before ``finish()`` is called is
///    reduced. Inputs sent after it are dropped and counted in
///    ``droppedInputCount``; nothing traps. (Effect results that are not
///    reduced are counted apart, in ``discardedEffectInputCount``.)
/// 3. **State streams** (``states``, ``stateValues``) start with the current
///    state, then deliver later states in order, conflated for slow
///    subscribers; a subscriber that keeps reading ends on the final state.
///    Unchanged states are not republished.
/// 4. **Output streams** (``outputs``, ``outputValues``) deliver every output,
///    in order, to every subscriber that was subscribed when it was emitted.
///    Before an output is delivered, the state that produced it is published.
/// 5. **Effects** run concurrently with the mailbox and feed results back as
///    inputs; a cancelled or superseded effect's results are discarded even
///    if its work already finished (see ``Effect``).
/// 6. **Lifetime.** ``finish()`` reduces what is pending, cancels every
///    effect (but those started with `onFinish: .runToCompletion`, which it
///    lets complete) and binding, finishes every stream, and returns once
///    every task it cancelled or spared has returned. Releasing the last
///    reference to an unfinished feature cancels its effects and bindings
///    and finishes its streams too (without waiting); inputs still waiting
///    in its mailbox are dropped (call `finish()` to have them reduced). No
///    scheduled drain keeps a feature alive after its last reference goes.
/// 7. **Failures are values.** Throwing effects turn errors into inputs
///    with their type (``Effect/run(id:priority:onFinish:operation:catch:)``).
/// 8. **Time** comes from an injected `Clock`: every time-based API takes one.
/// 9. **Operators are exact:** the operators' guarantee
///    (`ActorMVVMOperators`), not the feature's.
/// 10. **Lifecycle calls are safe from anywhere,** including from the
///    feature's own effects and bindings: ``finish()`` and ``idle()`` there
///    never wait for the calling task itself (see each for what they do).
///
/// The numbers are those of the Guarantees article, where each has the test
/// that proves it.
///
/// ## Performance shape
/// ``send(_:)`` appends to a locked buffer; the first send into an idle
/// mailbox schedules one short task that drains whole batches on the actor,
/// in turns, yielding between turns while senders keep it busy.
/// State is published once per batch (and before each output), so a burst
/// of inputs costs one relay update. The effects a batch asks for start
/// when it has been reduced, so a run superseded within the batch never
/// starts. An idle feature parks no task. The input path, and every public
/// method that reduces pending inputs itself (`state`, `perform`, `flush`,
/// `idle`, `activeEffectCount`) or schedules the drain (`send`, `bind`), is
/// `@inlinable`: your module specialises it for your machine's types.
/// (`finish()` is not: the inputs pending when it is called are reduced
/// through the generic code.)
public final actor Feature<Machine: StateMachine> {
  /// The machine's state.
  public typealias State = Machine.State
  /// The machine's inputs.
  public typealias Input = Machine.Input
  /// The machine's outputs.
  public typealias Output = Machine.Output

  // Internal and `@usableFromInline` rather than private, like the methods on
  // the input path: they are `@inlinable`, so a client module specialises the
  // whole drain loop for its own machine instead of paying for generic
  // metadata look-ups on every input. (`final`, because an actor's methods
  // are otherwise called through its vtable, which nothing can specialise.)
  @usableFromInline let machine: Machine
  /// The published state and its subscribers: a ``StateRelay`` held inline.
  @usableFromInline let stateRelay: StateCell<State>
  @usableFromInline let mailbox: Mailbox<Machine>
  @usableFromInline var runner: EffectRunner<Input, Output>
  @usableFromInline let counters: LifetimeCounters
  /// The batch being reduced, swapped with the mailbox's buffer.
  ///
  /// `@exclusivity(unchecked)`, like ``current``: `mailbox.take(into:
  /// &batch, …)` would otherwise pay a dynamic exclusivity check (a
  /// thread-local look-up and an access-set entry) on every take. Safe
  /// because only this actor's own methods touch it, each synchronously
  /// within one turn (`take`, `close` and `process` never suspend, and
  /// nothing they call can reach the feature's isolated members), so no
  /// two accesses overlap. `FeatureGuaranteeTests` and the stress suite
  /// under the thread sanitizer drive it.
  @exclusivity(unchecked) @usableFromInline var batch: [Mailbox<Machine>.Message] = []
  /// Running → finishing → finished, and who waits for idle or finish:
  /// a pure machine (``FeatureLifecycle``) this actor feeds and obeys.
  ///
  /// `@exclusivity(unchecked)`, like ``batch``: an awaited input
  /// (``perform(_:)``) reads it, and a dynamic check cost more than the
  /// rest of that input's transition. Safe because every access is this
  /// actor's, synchronous, and calls no code but ``FeatureLifecycle``'s own
  /// pure methods (waiters are resumed after the access, never inside it),
  /// so no access can begin while another is under way.
  @exclusivity(unchecked) @usableFromInline var lifecycle = FeatureLifecycle<FeatureWaiter>()
  /// The opt-in trace and the transition observers, allocated only for a
  /// feature that has either: nil is the one branch an input pays for them.
  ///
  /// `@exclusivity(unchecked)`, for the same reason as ``lifecycle``. Safe
  /// because every access is this actor's and synchronous, and none spans a
  /// call into a sink or an observer: each access reads the reference (or
  /// the observers) out, ends, and only then are they called — so an
  /// observer that reenters the feature (`assumeIsolated`) to stop
  /// observing replaces it outside any access.
  /// `ReaderBoundTests.observerReenters` does that in the middle of a transition.
  @exclusivity(unchecked) @usableFromInline var instrumentation: Instrumentation<Machine>?
  // The state last, after the lifecycle's phase: its few odd bytes (the
  // slot's tag) end the object rather than padding a word in its middle.
  /// The state, in a ``StateSlot``, never a bare `State` (see there: a
  /// thread-sanitizer false positive). The last published state is the
  /// state relay's value.
  ///
  /// `@exclusivity(unchecked)`: `reduce(into: &current.value, …)` would
  /// otherwise pay a dynamic exclusivity check on every input (a quarter of
  /// the mailbox's cost). Safe because every access is on this actor's
  /// executor, one at a time, and none can overlap the `inout` one:
  /// ``StateMachine/reduce`` is synchronous and is never handed the feature,
  /// and everything a machine could reach synchronously (`publishedState`,
  /// the relays) reads other storage. `FeatureGuaranteeTests.reduceSeesOnlyItsState`
  /// reads the feature from inside `reduce` and fails if that touched `current`.
  @exclusivity(unchecked) @usableFromInline var current: StateSlot<State>

  /// The opt-in trace (``FeatureTrace``).
  @inlinable var trace: FeatureTrace<Machine>? { instrumentation?.trace }

  /// Creates a feature in `initialState`. Nothing runs until an input arrives.
  /// - Parameters:
  ///   - machine: the state machine this feature runs.
  ///   - initialState: the state before the first input.
  ///   - counters: where this feature, its effects, bindings and
  ///     subscriptions are counted while alive.
  ///   - trace: reports every input, state change, effect run and output
  ///     (``FeatureTrace``; `.printing("name")` prints them, redacted).
  ///   - outputBuffering: how many outputs each subscriber of ``outputs``
  ///     that falls behind keeps (``EventRelay/BufferingPolicy``): every
  ///     one by default; bounded, a slow consumer stops growing memory and
  ///     misses the outputs the policy drops.
  @inlinable
  public init(
    _ machine: Machine, initialState: State, counters: LifetimeCounters = .shared,
    trace: FeatureTrace<Machine>? = nil,
    outputBuffering: EventRelay<Output>.BufferingPolicy = .unbounded
  ) {
    self.machine = machine
    if let trace { self.instrumentation = Instrumentation(trace: trace) } else { self.instrumentation = nil }
    self.current = StateSlot(initialState)
    self.counters = counters
    self.stateRelay = StateCell(initialState, counters: counters)
    // A bounded policy is rare: such a feature makes its output relay now,
    // so the lazily made one is always unbounded and no limit is stored.
    let outputLimit = EventRelay<Output>.limit(of: outputBuffering)
    let mailbox = Mailbox<Machine>()
    if outputLimit != 0 { _ = mailbox.outputRelay(storingIfNone: EventRelay(counters: counters, limit: outputLimit)) }
    self.mailbox = mailbox
    // Initialised once, observer included: the 6.3 optimizer's copy
    // propagation crashed on this init when the observer was set afterwards.
    var observer: (@Sendable (EffectRunEvent) -> Void)?
    if let trace { observer = { trace.sink(.effect($0)) } }
    self.runner = EffectRunner(observer: observer)
    counters.featureCount.increment()
    mailbox.attach(self)
  }

  // A plain (nonisolated) deinit: it touches only Sendable members. (An
  // `isolated deinit` on this generic actor crashes the 6.3 optimizer with
  // "circular reference" in release builds.)
  deinit {
    counters.featureReleased()
    for task in runner.tasksCancelledByRelease { task.cancel() }
    var leftover: [Mailbox<Machine>.Message] = []
    for task in mailbox.close(into: &leftover).values { task.cancel() }
    stateRelay.finish()
    // No one can subscribe any more: only a relay someone made needs finishing.
    mailbox.madeOutputRelay?.finish()
    mailbox.madeCausedOutputRelay?.finish()
  }

  /// The output relay, made now if nobody has subscribed yet (it lives in
  /// the mailbox's state: a feature whose outputs nobody reads never
  /// allocates it, and an output emitted while it is nil had no subscriber
  /// to deliver to, guarantee 4). Two callers racing to make it get the
  /// same one (the first stored).
  @inlinable
  nonisolated var outputRelay: EventRelay<Output> {
    if let relay = mailbox.madeOutputRelay { return relay }
    return mailbox.outputRelay(storingIfNone: EventRelay(counters: counters, limit: 0))
  }

  // MARK: Inputs

  /// Enqueues `input`. Never suspends and never blocks on the actor; callable
  /// from any thread, task or actor. See guarantees 1 and 2. Sent while a
  /// ``Cause`` is current, the input carries it (see there).
  @inlinable
  public nonisolated func send(_ input: Input) {
    if let cause = Cause.currentIfUsed {
      mailbox.push(.caused(input, cause))
    } else {
      mailbox.push(.input(input))
    }
  }

  /// Sends `input` and returns once it is reduced: the awaited form of
  /// ``send(_:)``, for "do this and tell me when it is done" — a
  /// pull-to-refresh that ends its spinner, a coordinator step, a test.
  ///
  /// ```swift
  /// let state = await feature.perform(.refreshPulled)
  /// ```
  ///
  /// - Isolation: runs on the feature's actor; the `await` is the
  ///   runtime's own switch onto it, as for any actor method.
  /// - Ordering: reduces what is already in the mailbox first — every
  ///   input this task sent before, and what other senders and effects
  ///   sent — then `input`, in one batch. Each sender's order is kept.
  /// - What it waits for: the transition, its outputs emitted and the runs
  ///   it asks for started; not their results (``idle()`` waits for those).
  /// - Causes, tracing, observers and guarantees are ``send(_:)``'s: sent
  ///   while a ``Cause`` is current, the input carries it.
  /// - After ``finish()``: nothing is reduced; the input counts in
  ///   ``droppedInputCount``, as a sent one would.
  /// - Returns: the state after the transition.
  ///
  /// Use ``send(_:)`` from a view's event handlers: it never suspends, and
  /// the reduction runs on the feature's actor off the main thread. Use
  /// `perform` where the caller needs the transition done before it goes
  /// on; its cost is an awaited actor call's.
  @inlinable
  @discardableResult
  public func perform(_ input: Input) -> State {
    guard mailbox.takeBeforeAwaitedInput(into: &batch) else { return current.value }
    let cause = Cause.currentIfUsed
    if batch.isEmpty {
      // Nothing pending (the usual case): the input alone, without the
      // batch — the same transition `process()` would make of it.
      if cause == nil, instrumentation == nil {
        let effect = machine.reduce(into: &current.value, input)
        if case .none = effect.kind {} else { performAndStart(effect) }
      } else {
        if let cause { reduce(input, causedBy: cause) } else { reduce(input) }
        if runner.hasPending { startPending() }
      }
      publish()
    } else {
      batch.append(cause.map { .caused(input, $0) } ?? .input(input))
      process()
    }
    if lifecycle.hasIdleWaiters { resumeIdleWaitersIfIdle() }
    return current.value
  }

  /// ``perform(_:)``'s effect: its runs recorded, then started.
  @usableFromInline
  func performAndStart(_ effect: Effect<Input, Output>) {
    let sentBack = perform(effect)
    if !sentBack.isEmpty { reduceSentBack(sentBack, cause: nil) }
    startPending()
  }

  /// Starts this feature's effect runs through a ``StartLane``, the path of
  /// Apple OSes below 26, even where they could start immediately: for
  /// tests of that path on Linux.
  func startRunsThroughLane() { runner.startThroughLane() }

  /// Starts the runs recorded since the last start.
  @inlinable
  func startPending() {
    let mailbox = self.mailbox
    runner.startPending(host: mailbox.host, counters: counters) { mailbox.push(.effect($0)) }
  }

  /// Sends every element of `inputs` until it ends, the binding is
  /// cancelled, or the feature finishes (which cancels it). The sequence is
  /// iterated in its own task; its elements keep their order.
  /// - Returns: the binding's task; cancel it to unbind early. Nil if the
  ///   feature has already finished.
  @discardableResult @inlinable
  public nonisolated func bind<Inputs: AsyncSequence & Sendable>(
    _ inputs: Inputs
  ) -> Task<Void, Never>? where Inputs.Element == Input, Inputs.Failure == Never {
    mailbox.startBinding(counters: counters) { mailbox in
      for await input in inputs { mailbox.push(.input(input)) }
    }
  }

  /// Sends `transform(element)` for every element of `values`: binds a
  /// control's values to an input case, like `idField.rx.text.bind(to:
  /// viewModel.idChanged)` (`feature.bind(idTexts, to: Input.idChanged)`).
  /// Same contract as ``bind(_:)``.
  @discardableResult @inlinable
  public nonisolated func bind<Values: AsyncSequence & Sendable>(
    _ values: Values, to transform: @escaping @Sendable (Values.Element) -> Input
  ) -> Task<Void, Never>? where Values.Failure == Never {
    mailbox.startBinding(counters: counters) { mailbox in
      for await value in values { mailbox.push(.input(transform(value))) }
    }
  }

  /// Like ``bind(_:)`` for a throwing sequence: if it throws, `catch` turns
  /// the error into a last input and the binding ends.
  @discardableResult @inlinable
  public nonisolated func bind<Inputs: AsyncSequence & Sendable>(
    _ inputs: Inputs,
    catch: @escaping @Sendable (any Error) -> Input
  ) -> Task<Void, Never>? where Inputs.Element == Input {
    mailbox.startBinding(counters: counters) { mailbox in
      do {
        for try await input in inputs { mailbox.push(.input(input)) }
      } catch  where !Task.isCancelled {
        mailbox.push(.input(`catch`(error)))
      } catch {}
    }
  }

  /// Inputs sent with ``send(_:)`` or a binding after ``finish()``, and so
  /// dropped. Effect results are not counted here.
  public nonisolated var droppedInputCount: Int { mailbox.droppedCount }

  /// Inputs that effects sent and the feature did not reduce: from runs
  /// that were cancelled or superseded (their results are stale), sent
  /// after ``finish()``, or sent after the run's operation had returned.
  public nonisolated var discardedEffectInputCount: Int { mailbox.discardedCount }

  /// Of ``discardedEffectInputCount``, the inputs sent through a ``Send``
  /// after its run's operation had returned (see ``Send``: await a callback
  /// instead of sending from it later).
  public nonisolated var lateEffectInputCount: Int { mailbox.lateCount }

  // MARK: Outputs

  /// The state after every input reduced so far, including every input this
  /// task sent before reading it (what is pending is reduced first, then
  /// what arrives meanwhile up to a bound: a machine that keeps sending
  /// never keeps a reader waiting).
  @inlinable
  public var state: State {
    drainPending()
    return current.value
  }

  /// The last published state, without suspending (it may lag `state` by
  /// the inputs still in the mailbox).
  @inlinable
  public nonisolated var publishedState: State { stateRelay.value }

  /// ``publishedState`` and the number of its publication, read together
  /// under one lock: the version increases by one with each publication
  /// that changed the state, so a view bridge that applied version n knows
  /// whether it is current. Nonisolated, never suspends.
  public nonisolated var versionedState: (value: State, version: UInt64) { stateRelay.versionedValue }

  /// State updates as an `AsyncStream` (guarantee 3). Subscribed when read.
  public nonisolated var states: AsyncStream<State> { stateRelay.stream }

  /// State updates through the relay's own sequence: the same contract as
  /// ``states``, faster. Subscribed when read.
  @inlinable
  public nonisolated var stateValues: StateRelay<State>.Values { stateRelay.values }

  /// Outputs as an `AsyncStream` (guarantee 4). Subscribed when read.
  public nonisolated var outputs: AsyncStream<Output> { outputRelay.stream }

  /// Outputs through the relay's own sequence: the same contract as
  /// ``outputs``, faster. Subscribed when read.
  @inlinable
  public nonisolated var outputValues: EventRelay<Output>.Values { outputRelay.values }

  /// Outputs emitted so far. A listener that has handled this many outputs
  /// has caught up (how the coordinator knows navigation has settled); under
  /// a bounded `outputBuffering`, count the outputs its iterator reports
  /// dropped (``EventRelay/Values/Iterator/droppedCount``) as handled.
  @inlinable
  public nonisolated var emittedOutputCount: Int { mailbox.emittedCount }

  /// Effects whose results may still land.
  @inlinable
  public var runningEffectCount: Int { runner.liveCount }

  /// Effect tasks that have not returned, after every input sent before the
  /// call is reduced: the live runs and the cancelled ones still winding
  /// down (``idle()`` waits for this to reach zero). A virtual-time driver
  /// compares it with the tasks asleep on its clock to tell when nothing
  /// can move until time does.
  @inlinable
  public var activeEffectCount: Int {
    drainPending()
    return runner.activeCount
  }

  // MARK: Lifetime

  /// Returns once every input sent before the call has been reduced and
  /// every effect task has returned and had its inputs handled (effects
  /// started meanwhile, and cancelled ones still winding down, included).
  /// Effects that never end (timers, endless loops) keep it waiting; use
  /// ``flush()`` to wait for the mailbox alone. Returns at once after
  /// ``finish()``.
  ///
  /// Called from inside one of this feature's own effects or bindings, it
  /// cannot wait for effects (it would wait for itself, or two effects for
  /// each other): it reduces what is pending, as ``flush()``, and returns.
  /// It returns early, asserting nothing, when the calling task is
  /// cancelled (so a test's `.timeLimit` ends it). For a wait that fails
  /// instead of waiting forever on an effect that never ends, see
  /// ``idle(timeout:)``.
  @inlinable
  public func idle() async {
    drainPending()
    let fromOwnTask = runner.callerScope(host: mailbox.host) != nil
    guard lifecycle.idle(fromOwnTask: fromOwnTask, activeEffects: runner.activeCount) == .wait else { return }
    let wait = BoundedWait()
    lifecycle.waitForIdle(.bounded(wait))
    _ = await withTaskCancellationHandler {
      await wait.result
    } onCancel: {
      wait.resume(returning: false)
    }
  }

  /// ``idle()`` with a bound, for tests and drivers that must never hang:
  /// returns as ``idle()`` does, or throws ``FeatureBusy`` naming the
  /// effects still running once `timeout` of real time has passed and then
  /// nothing in the process can run (a machine slowed by load is waited
  /// for; the bound is a guard against a hang, not a pause). An effect that
  /// never ends (a live query, a timer) makes it throw; ``flush()`` is the
  /// wait that leaves effects running. Returns at once, as ``idle()``,
  /// after ``finish()`` or from inside the feature's own effects, and
  /// returns (without throwing) when the calling task is cancelled.
  @inlinable
  public func idle(timeout: Duration) async throws(FeatureBusy) {
    drainPending()
    let fromOwnTask = runner.callerScope(host: mailbox.host) != nil
    guard lifecycle.idle(fromOwnTask: fromOwnTask, activeEffects: runner.activeCount) == .wait else { return }
    let wait = BoundedWait()
    lifecycle.waitForIdle(.bounded(wait))
    wait.armDeadline(after: timeout)
    let becameIdle = await withTaskCancellationHandler {
      await wait.result
    } onCancel: {
      wait.resume(returning: false)
    }
    drainPending()
    guard !becameIdle, !Task.isCancelled, runner.activeCount > 0 else { return }
    throw busy(after: timeout)
  }

  /// What keeps this feature from idle, for a wait that gave up.
  @usableFromInline
  func busy(after timeout: Duration) -> FeatureBusy {
    var running = runner.liveDescriptions
    let winding = runner.activeCount - runner.liveCount
    if winding > 0 { running.append("\(winding) cancelled effect(s) not yet returned") }
    return FeatureBusy(feature: "\(Machine.self)", runningEffects: running, timeout: timeout)
  }

  /// Reduces every input sent before the call, without waiting for effects
  /// (and what arrives meanwhile only up to a bound: a machine that keeps
  /// sending never keeps the caller waiting).
  @inlinable
  public func flush() {
    drainPending()
  }

  /// Finishes the feature (guarantee 6). Pending inputs are reduced first;
  /// later ones are dropped. Idempotent: a second call waits for the first.
  ///
  /// Called from inside one of this feature's own effects or bindings, it
  /// finishes the feature the same way (the calling effect is cancelled
  /// like the others) but does not wait for the calling task, which cannot
  /// wait for itself; if a finish is already under way (it is waiting for
  /// this very task), it returns at once.
  public func finish() async {
    let caller = runner.callerScope(host: mailbox.host)
    switch lifecycle.finish(fromOwnTask: caller != nil) {
    case .returnNow: return
    case .wait: return await withCheckedContinuation { lifecycle.waitForFinish(.unbounded($0)) }
    case .begin: break
    }
    var bindings = mailbox.close(into: &batch)
    process()
    stateRelay.finish()
    outputRelay.finish()
    mailbox.madeCausedOutputRelay?.finish()
    for task in bindings.values { task.cancel() }
    if let own = caller?.binding { bindings.removeValue(forKey: own) }
    let tasks = runner.cancelAll(finishing: true, excluding: caller?.generation) + bindings.values
    for task in tasks { await task.value }
    for waiter in lifecycle.finished() { waiter.resume() }
  }

  // MARK: Draining

  /// One turn of the scheduled drain, on the actor: reduces batches until
  /// the mailbox is empty (then releases the schedule: the next send starts
  /// a new drain) or until it should give the actor back, leaving the rest
  /// for the next turn, which the drain's task takes after a yield
  /// (``Mailbox/push(_:)`` says why). It gives the actor back after a
  /// batch of fewer than ``Mailbox/smallBatch`` messages (a drain that
  /// outpaces its senders lets the next batch build up instead of taking a
  /// few at a time) and after ``Mailbox/batchesPerTurn`` batches in a row.
  @inlinable
  func drainTurn() {
    var batches = 0
    while mailbox.take(into: &batch, release: true) {
      let count = batch.count
      process()
      batches += 1
      if count < Mailbox<Machine>.smallBatch || batches == Mailbox<Machine>.batchesPerTurn {
        if mailbox.requestTurnIfPending() { return }
        break
      }
    }
    resumeIdleWaitersIfIdle()
  }

  /// An inline drain for readers: reduces what is pending now — every
  /// input sent before the call — and what arrives while it does, up to
  /// ``Mailbox/batchesPerTurn`` batches; the rest, and the schedule, are the
  /// scheduled drain's. Bounded, because a drain until empty never returns
  /// on a machine whose reductions keep sending; not a single batch,
  /// because effects' results arriving meanwhile would each wake the
  /// scheduled drain instead (a single take made the thread-sanitized
  /// stress suite take half as long again).
  @inlinable
  func drainPending() {
    var batches = 0
    while batches < Mailbox<Machine>.batchesPerTurn, mailbox.take(into: &batch, release: false) {
      process()
      batches += 1
    }
    resumeIdleWaitersIfIdle()
  }

  @inlinable
  func process() {
    for message in batch {
      switch message {
      case .input(let input):
        reduce(input)
      case .caused(let input, let cause):
        reduce(input, causedBy: cause)
      case .effect(.sent(let input, let generation)):
        if runner.isLive(generation) {
          if let cause = runner.cause(of: generation) {
            reduce(input, causedBy: cause, origin: .fedBack)
          } else {
            reduce(input, origin: .fedBack)
          }
        } else {
          mailbox.countDiscarded(late: false)
          if let trace { Cause.within(runner.cause(of: generation)) { trace.sink(.staleResultDropped(input)) } }
        }
      case .effect(.late(let input, _)):
        mailbox.countDiscarded(late: true)
        if let trace { Cause.within(nil) { trace.sink(.lateResultDropped(input)) } }
      case .effect(.ended(let generation)):
        if runner.observer == nil {
          runner.ended(generation)
        } else {
          Cause.within(runner.cause(of: generation)) { runner.ended(generation) }
        }
      }
    }
    batch.removeAll(keepingCapacity: true)
    startPending()
    publish()
  }

  @inlinable
  func reduce(_ input: Input, origin: FeatureTransition<Machine>.Origin = .sent) {
    // An uncaused transition seen by a trace or an observer is seen with no
    // cause (not the one the draining task may have inherited from its sender).
    if instrumentation != nil { return Cause.within(nil) { reduceInstrumented(input, origin: origin) } }
    let effect = machine.reduce(into: &current.value, input)
    if case .none = effect.kind { return }
    let sentBack = perform(effect)
    if !sentBack.isEmpty { reduceSentBack(sentBack, cause: nil) }
  }

  /// `reduce` under `cause`: current for the transition (a trace sink sees
  /// it), carried by the runs it records and the outputs it emits.
  @usableFromInline
  func reduce(_ input: Input, causedBy cause: Cause, origin: FeatureTransition<Machine>.Origin = .sent) {
    runner.currentCause = cause
    Cause.$explicit.withValue(.some(cause)) { reduceInstrumented(input, origin: origin) }
    runner.currentCause = nil
  }

  /// Performs a transition's effect; returns the inputs its routed child
  /// outputs sent back, for the caller to reduce once the transition is
  /// complete (``reduceSentBack(_:cause:)``). Empty, and free, for the rest.
  @inlinable
  func perform(_ effect: Effect<Input, Output>) -> [Input] {
    let cause = runner.currentCause
    var sentBack: [Input] = []
    runner.perform(effect) { output in
      publish()
      trace?.sink(.output(output))
      mailbox.noteOutput(output, cause: cause)?.accept(output)
    } sendBack: { input in
      sentBack.append(input)
    }
    return sentBack
  }

  /// Reduces the inputs a transition's routed child outputs sent back, in
  /// order, each as a transition of its own (origin `.fedBack`) under the
  /// transition's cause, before anything else is reduced.
  @usableFromInline
  func reduceSentBack(_ inputs: [Input], cause: Cause?) {
    for input in inputs {
      if let cause { reduce(input, causedBy: cause, origin: .fedBack) } else { reduce(input, origin: .fedBack) }
    }
  }

  /// `reduce` with a trace, an observer or a cause: the input, then the
  /// fields it changed (traced), what its effect did, then the observers told.
  @usableFromInline
  func reduceInstrumented(_ input: Input, origin: FeatureTransition<Machine>.Origin) {
    trace?.sink(.input(input))
    let before = trace != nil ? current.value : nil
    let effect = machine.reduce(into: &current.value, input)
    if let trace, let before, before != current.value {
      trace.sink(.stateChanged(FeatureTrace<Machine>.changes(from: before, to: current.value)))
    }
    let sentBack = perform(effect)
    if let observers = instrumentation?.observers, !observers.isEmpty {
      let transition = FeatureTransition<Machine>(
        input: input, origin: origin, state: current.value, cause: runner.currentCause)
      for id in observers.keys.sorted() { observers[id]?(transition) }
    }
    if !sentBack.isEmpty { reduceSentBack(sentBack, cause: runner.currentCause) }
  }

  /// Calls `observer` after every transition from now on — every input
  /// reduced, changed state or not — with the input, where it came from,
  /// the state after it and its ``Cause``; returns the observer's id (for
  /// ``stopObservingTransitions(_:)``) and the state it starts from. What a
  /// view that renders each of its user's actions, or a tester that
  /// asserts each transition, stands on.
  ///
  /// - Isolation: `observer` runs on this actor, at the end of the
  ///   transition: after its outputs were emitted and its runs recorded
  ///   (they start once the batch it is in has been reduced). Keep it short
  ///   and never call back into the feature.
  /// - Ordering: transitions are reported in the order they are reduced;
  ///   several observers are called in the order they were added.
  /// - Cost: while any observer or a trace is attached, each input pays one
  ///   call per observer and the cause bookkeeping; none attached, nothing.
  /// - Ending: the observer is held until it is stopped or the feature is
  ///   released; a finished feature reduces nothing more, so it is never
  ///   called again.
  public func observeTransitions(
    _ observer: @escaping @Sendable (FeatureTransition<Machine>) -> Void
  ) -> (id: UInt64, state: State) {
    let instrumentation = self.instrumentation ?? Instrumentation(trace: nil)
    self.instrumentation = instrumentation
    instrumentation.nextObserverID += 1
    instrumentation.observers[instrumentation.nextObserverID] = observer
    return (instrumentation.nextObserverID, current.value)
  }

  /// Stops the observer with `id`; an unknown id is ignored.
  public func stopObservingTransitions(_ id: UInt64) {
    instrumentation?.observers.removeValue(forKey: id)
    if instrumentation?.observers.isEmpty == true, trace == nil { instrumentation = nil }
  }

  /// Outputs from now on, each with the ``Cause`` it was emitted under and
  /// its number, and how many outputs were emitted before: what a
  /// coordinator that runs each output's step under its cause stands on.
  ///
  /// - Numbering: outputs are numbered from 1 in emission order over the
  ///   feature's life (``emittedOutputCount`` is the last number). Every
  ///   output numbered above `emittedBefore` reaches this subscription,
  ///   unless its buffering drops it; none numbered at or below it does. A
  ///   listener that has handled the output numbered n has seen, or lost
  ///   to buffering, everything up to n.
  /// - Buffering: the feature's `outputBuffering`, as for ``outputs``.
  /// - Isolation and ending: as ``outputValues`` (one iterator; the
  ///   sequence ends when the feature finishes or is released).
  public nonisolated func outputsWithCauses() -> (
    emittedBefore: Int, values: EventRelay<CausedOutput<Output>>.Values
  ) {
    let limit = mailbox.madeOutputRelay?.limit ?? 0
    return mailbox.subscribeCausedOutputs { EventRelay(counters: counters, limit: limit) }
  }

  @inlinable
  func publish() {
    stateRelay.acceptIfChanged(current.value)
  }

  @inlinable
  func resumeIdleWaitersIfIdle() {
    guard let waiters = lifecycle.drained(activeEffects: runner.activeCount) else { return }
    for waiter in waiters { waiter.resume() }
  }
}

/// A feature's state as a stored property that is never zero-sized.
///
/// The thread sanitizer's one report in this project was a false positive:
/// with an empty `State` (a struct with no stored properties), code
/// specialised for it modifies the zero-sized `current` at the actor's own
/// base address, which `send(_:)` on another thread reads (the object
/// header), and TSan reports an access race between the two. The one-byte
/// `tag` gives the slot a size, so every access to it has an address of its
/// own. `EmptyStateStressTests` is the reproduction: it halted
/// `Scripts/stress.sh` on the layout before this slot. Costs one byte (and
/// its padding) per stored state.
@usableFromInline
struct StateSlot<State> {
  @usableFromInline var value: State
  @usableFromInline let tag: UInt8 = 0

  @inlinable init(_ value: State) { self.value = value }
}

/// A feature's trace and transition observers (by id): allocated only
/// while it has either.
@usableFromInline
final class Instrumentation<Machine: StateMachine> {
  @usableFromInline let trace: FeatureTrace<Machine>?
  @usableFromInline var observers: [UInt64: @Sendable (FeatureTransition<Machine>) -> Void] = [:]
  @usableFromInline var nextObserverID: UInt64 = 0

  @usableFromInline init(trace: FeatureTrace<Machine>?) { self.trace = trace }
}

/// One transition as ``Feature/observeTransitions(_:)`` reports it.
public struct FeatureTransition<Machine: StateMachine>: Sendable {
  /// Where a reduced input came from.
  public enum Origin: Sendable, Equatable {
    /// Sent to the feature: `send`, a binding, a parent scope.
    case sent
    /// Fed back by one of the feature's effect runs (a result).
    case fedBack
  }

  /// The input reduced.
  public let input: Machine.Input
  /// Where it came from.
  public let origin: Origin
  /// The state after the input.
  public let state: Machine.State
  /// The cause the input was reduced under, if any.
  public let cause: Cause?

  @usableFromInline
  init(input: Machine.Input, origin: Origin, state: Machine.State, cause: Cause?) {
    self.input = input
    self.origin = origin
    self.state = state
    self.cause = cause
  }
}

/// An output as ``Feature/outputsWithCauses()`` delivers it.
public struct CausedOutput<Output: Sendable>: Sendable {
  /// The output.
  public let output: Output
  /// The cause of the transition that emitted it, if any.
  public let cause: Cause?
  /// Its number among everything the feature emitted, from 1.
  public let number: Int

  @usableFromInline
  init(output: Output, cause: Cause?, number: Int) {
    self.output = output
    self.cause = cause
    self.number = number
  }
}
