/// Performs effects for a host (a ``Feature``, the one host there is: a
/// `FeatureTester` drives a feature, whose runner this is) and keeps the
/// books on the runs it started.
///
/// Each run gets a fresh generation. A run is *live* from the moment it is
/// performed until its `ended` message is handled, or until it is cancelled
/// or superseded. Inputs from runs that are not live are stale and must be
/// dropped by the host: ``isLive(_:)`` is the check the host makes where
/// results re-enter.
///
/// **Deferred start.** ``perform(_:emit:)`` only records a run; the host
/// calls ``startPending(host:counters:sink:)`` once it has reduced its current
/// batch of inputs (still inside the same actor turn). A run cancelled or superseded before
/// then never gets a task: a burst of superseding requests reduced in one
/// batch starts one task, for the last of them, which is all
/// `flatMapLatest` lets land anyway.
///
/// **Context.** Each run's task is detached (no task-locals or priority
/// inherited from whichever task scheduled the drain), with the run's own
/// priority, and carries an ``EffectScope`` naming this runner's host and
/// the run's generation, so the host can tell a lifecycle call made from
/// inside one of its own runs, and the ``Cause`` the run was started under
/// (current inside it, and the cause of every input it sends back).
///
/// **Order.** On OS 26 and Linux each task starts immediately
/// (`Task.immediateDetached`): its operation runs on the starting thread,
/// not isolated to the host, until its first suspension, before the next
/// run starts. So runs begin in the order they were performed: the first
/// call each makes (to a use case, an actor) is made in input order. Below
/// OS 26 each run's task takes a ticket on its host's ``StartLane`` as it
/// is created: the first slices run one at a time, in ticket order, each
/// releasing the next as it first suspends, so the first calls are made
/// in input order there too (Guarantees, row 5; ``startsRunsImmediately``).
///
/// A value owned by one isolation domain (its host's actor, as a stored
/// `var`), which calls every mutating method: one word in its host, its
/// books on the heap from the first run recorded (``storage``, copied on
/// write, so it stays a value). It is `Sendable` so that a host's nonisolated
/// `deinit`, which has the last reference, can cancel what is still running.
/// The tasks it starts are not isolated to the host: they run concurrently
/// with it.
@usableFromInline
struct EffectRunner<Input: Sendable, Output: Sendable>: Sendable {
  /// A started run.
  @usableFromInline
  struct Started: Sendable {
    @usableFromInline let task: Task<Void, Never>
    @usableFromInline let id: AnyCancelID?
    /// Started with `onFinish: .runToCompletion`.
    @usableFromInline let survivesFinish: Bool

    @inlinable
    init(task: Task<Void, Never>, id: AnyCancelID?, survivesFinish: Bool) {
      self.task = task
      self.id = id
      self.survivesFinish = survivesFinish
    }
  }

  /// Everything the runner keeps, on the heap and made by the first run
  /// recorded (or the first extra set): until then an idle feature pays one
  /// nil word for all of it. Copy-on-write (see ``Storage``), so the runner
  /// is still a value.
  @usableFromInline var storage: Storage?

  /// The runner's books and extras.
  @usableFromInline
  struct Books: Sendable {
    @usableFromInline var nextGeneration: UInt64 = 0
    /// Runs recorded since the last `startPending`: the run with generation
    /// `pendingBase + i` is `pending[i]`, nil once cancelled or superseded.
    @usableFromInline var pending: [Effect<Input, Output>.Run?] = []
    @usableFromInline var pendingBase: UInt64 = 1
    /// Started runs that are live.
    @usableFromInline var live: [UInt64: Started] = [:]
    /// Cancelled runs whose tasks have not returned yet.
    @usableFromInline var winding: [UInt64: Task<Void, Never>] = [:]
    /// The live run (pending or started) of each cancellation id.
    @usableFromInline var generationOfID: [AnyCancelID: UInt64] = [:]
    /// The window of each throttle id (``Effect/throttle``).
    @usableFromInline var throttleWindows: [AnyCancelID: any ThrottleWindowing] = [:]
    /// The cause of each run started under one, by generation.
    @usableFromInline var causes: [UInt64: Cause] = [:]
    @usableFromInline var currentCause: Cause?
    @usableFromInline var observer: (@Sendable (EffectRunEvent) -> Void)?
    /// The start turnstile where runs do not start immediately (made by
    /// the first start on that path), or where a test forces it
    /// (``startThroughLane()``).
    @usableFromInline var startLane: StartLane?
    @inlinable init() {}
  }

  /// ``Books`` in a class, copied on write.
  ///
  /// `@unchecked Sendable` is safe because a `Storage` is mutated only
  /// through ``EffectRunner/books``' `_modify`, which first makes it unique
  /// (`isKnownUniquelyReferenced`, or a fresh copy): an instance two runner
  /// values share is only ever read, and the one a runner mutates is
  /// reachable from that runner alone, which its owning isolation domain
  /// mutates (the runner's own contract). So it behaves exactly as the
  /// `Books` value it holds, which is `Sendable`.
  /// `EffectRunnerTests.storageCopiedOnWrite` proves the copy on write; the stress suite drives effects under the
  /// thread sanitizer. `@exclusivity(unchecked)` on `books`: every access is
  /// a runner's, one at a time, under the same discipline (and a dynamic
  /// check on each would cost more than the rest of the access).
  @usableFromInline
  final class Storage: @unchecked Sendable {
    @exclusivity(unchecked) @usableFromInline var books: Books

    @inlinable init(_ books: Books) { self.books = books }
  }

  /// The books: read without allocating while there are none; changed in
  /// place once this runner alone holds them.
  @inlinable
  var books: Books {
    get { storage?.books ?? Books() }
    _modify {
      if storage == nil {
        storage = Storage(Books())
      } else if !isKnownUniquelyReferenced(&storage!) {
        storage = Storage(storage!.books)
      }
      yield &storage!.books
    }
  }

  @inlinable var nextGeneration: UInt64 {
    get { storage?.books.nextGeneration ?? 0 }
    _modify { yield &books.nextGeneration }
  }
  @inlinable var pending: [Effect<Input, Output>.Run?] {
    get { storage?.books.pending ?? [] }
    _modify { yield &books.pending }
  }
  @inlinable var pendingBase: UInt64 {
    get { storage?.books.pendingBase ?? 1 }
    _modify { yield &books.pendingBase }
  }
  @inlinable var live: [UInt64: Started] {
    get { storage?.books.live ?? [:] }
    _modify { yield &books.live }
  }
  @inlinable var winding: [UInt64: Task<Void, Never>] {
    get { storage?.books.winding ?? [:] }
    _modify { yield &books.winding }
  }
  @inlinable var generationOfID: [AnyCancelID: UInt64] {
    get { storage?.books.generationOfID ?? [:] }
    _modify { yield &books.generationOfID }
  }

  /// The window of each throttle id (``Effect/throttle``).
  @inlinable
  var throttleWindows: [AnyCancelID: any ThrottleWindowing] {
    get { storage?.books.throttleWindows ?? [:] }
    _modify { yield &books.throttleWindows }
  }

  /// Told of every run's start, supersession, cancellation and end, when a
  /// trace is on (``FeatureTrace``); nil costs one branch per event.
  @inlinable
  var observer: (@Sendable (EffectRunEvent) -> Void)? {
    get { storage?.books.observer }
    _modify { yield &books.observer }
  }

  /// The ``Cause`` of the input being reduced, set by the host around a
  /// caused transition: runs recorded meanwhile carry it.
  @inlinable
  var currentCause: Cause? {
    get { storage?.books.currentCause }
    set {
      if storage == nil, newValue == nil { return }
      books.currentCause = newValue
    }
  }

  /// The cause of each run started under one, by generation, until the
  /// runner forgets the run. Empty unless causes are used.
  @inlinable
  var causes: [UInt64: Cause] {
    get { storage?.books.causes ?? [:] }
    _modify { yield &books.causes }
  }

  @inlinable
  init(observer: (@Sendable (EffectRunEvent) -> Void)? = nil) {
    if let observer { books.observer = observer }
  }

  /// Runs that are live, started or not.
  @inlinable
  var liveCount: Int { live.count + pendingLive }

  /// Recorded runs not cancelled or superseded yet: counted, not stored
  /// (`pending` is empty between batches, and short within one).
  @inlinable
  var pendingLive: Int { pending.isEmpty ? 0 : pending.count { $0 != nil } }

  /// Runs not yet finished: live runs plus cancelled ones still winding down.
  @inlinable
  var activeCount: Int { liveCount + winding.count }

  /// Whether runs were recorded that `startPending` has not started.
  @inlinable
  var hasPending: Bool { storage.map { !$0.books.pending.isEmpty } ?? false }

  /// Every task that may not have returned yet.
  @inlinable
  var startedTasks: [Task<Void, Never>] {
    live.values.map { $0.task } + winding.values
  }

  /// What is still running, for a wait that gives up: each started live
  /// run's cancellation id ("an effect with no id" otherwise), and the runs
  /// recorded but not started yet.
  var liveDescriptions: [String] {
    var names = live.keys.sorted().map { live[$0]?.id?.description ?? "an effect with no id" }
    if pendingLive > 0 { names.append("\(pendingLive) effect(s) not started yet") }
    return names
  }

  /// The generations of the started runs that are live.
  @inlinable
  var liveGenerations: [UInt64] { Array(live.keys) }

  /// The tasks a host's `deinit` cancels: all but the runs started with
  /// `onFinish: .runToCompletion`.
  @inlinable
  var tasksCancelledByRelease: [Task<Void, Never>] {
    live.values.filter { !$0.survivesFinish }.map { $0.task } + winding.values
  }

  /// The run or binding of `host` (this runner's host: the id its runs'
  /// ``EffectScope`` carries, passed in rather than stored, to keep an idle
  /// feature small) that the current task belongs to, if any.
  @inlinable
  func callerScope(host: UInt64) -> EffectScope? {
    guard let scope = EffectScope.ofCurrentTask(), scope.host == host else { return nil }
    return scope
  }

  /// Whether results of the run with `generation` may still land. (A
  /// pending run has no task yet, so nothing of it can arrive.)
  @inlinable @inline(__always)
  func isLive(_ generation: UInt64) -> Bool { live[generation] != nil }

  /// The cause the run with `generation` was started under, if any: its
  /// inputs are reduced under it.
  @inlinable @inline(__always)
  func cause(of generation: UInt64) -> Cause? {
    causes.isEmpty ? nil : causes[generation]
  }

  /// Performs `effect`: outputs go to `emit` synchronously and in order,
  /// inputs sent back to `sendBack` (for the feature to reduce once this
  /// returns); runs are recorded to start at the next
  /// ``startPending(host:counters:sink:)``; cancellations cancel.
  @inlinable
  mutating func perform(_ effect: Effect<Input, Output>, emit: (Output) -> Void, sendBack: (Input) -> Void) {
    switch effect.kind {
    case .none: break
    case .emit(let output): emit(output)
    case .sendBack(let input): sendBack(input)
    case .run(let run): record(run)
    case .cancel(let id):
      if let generation = generationOfID.removeValue(forKey: id) { cancel(generation) }
      if !throttleWindows.isEmpty, let window = throttleWindows.removeValue(forKey: id) {
        cancelHeld(id, window: window.heldWindow)
      }
      if id.isScoped { cancelEverything(inside: id) }
    case .merge(let effects):
      for effect in effects { perform(effect, emit: emit, sendBack: sendBack) }
    case .throttle(let throttled): throttle(throttled)
    }
  }

  /// Cancels every run, pending or started, whose id lies in the namespace
  /// `cancellation` names (a removed or dismissed child's), and forgets its
  /// throttle windows. A scan of the live ids: only a child's removal pays it.
  @usableFromInline
  mutating func cancelEverything(inside cancellation: AnyCancelID) {
    guard cancellation.cancelsNamespace else { return }
    for id in generationOfID.keys where id.lies(inside: cancellation) {
      if let generation = generationOfID.removeValue(forKey: id) { cancel(generation) }
    }
    for id in throttleWindows.keys where id.lies(inside: cancellation) { throttleWindows.removeValue(forKey: id) }
  }

  /// An arrival under a throttle window: started, dropped or held.
  @usableFromInline
  mutating func throttle(_ throttled: Effect<Input, Output>.Throttled) {
    var window = throttleWindows.removeValue(forKey: throttled.id) ?? throttled.window
    let decision = window.admit(latest: throttled.latest)
    throttleWindows[throttled.id] = window
    switch decision {
    case .drop: break
    case .now(let dropped):
      cancelHeld(throttled.id, window: dropped)
      record(throttled.run)
    case .hold(let serial, let wait):
      let run = throttled.run
      record(
        Effect<Input, Output>.Run(
          // Held work that has not started is not worth waiting for at finish.
          id: AnyCancelID(ThrottleHeldID(id: throttled.id, window: serial)), priority: run.priority, onFinish: .cancel
        ) { send in
          guard await wait() else { return }
          await run.operation(send)
        })
    }
  }

  /// Cancels the run held for `window` of throttle `id`, if it has not started.
  @usableFromInline
  mutating func cancelHeld(_ id: AnyCancelID, window: UInt64?) {
    guard let window else { return }
    if let generation = generationOfID.removeValue(forKey: AnyCancelID(ThrottleHeldID(id: id, window: window))) {
      cancel(generation)
    }
  }

  /// Starts a task for every recorded run still live, in the order they
  /// were performed; `host` is the id their ``EffectScope`` carries,
  /// `counters` the host's, where each is counted while it runs, and
  /// `sink` where each sends its inputs and its end (all three passed in
  /// rather than stored, to keep an idle feature small).
  @inlinable
  mutating func startPending(
    host: UInt64, counters: LifetimeCounters, sink: @escaping @Sendable (EffectMessage<Input>) -> Void
  ) {
    guard !pending.isEmpty else { return }
    var lane = storage?.books.startLane
    if lane == nil, !Self.startsRunsImmediately {
      lane = StartLane()
      books.startLane = lane
    }
    for (offset, run) in pending.enumerated() {
      guard let run else { continue }  // cancelled before it started
      let generation = pendingBase + UInt64(offset)
      live[generation] = Started(
        task: start(run, generation: generation, host: host, counters: counters, lane: lane, sink: sink), id: run.id,
        survivesFinish: run.onFinish == .runToCompletion)
      // Reported under the run's own cause (the input that started it), not
      // the draining task's (the sender that scheduled the drain).
      if let observer {
        Cause.within(cause(of: generation)) { observer(.started(run: generation, id: run.id?.description)) }
      }
    }
    pending.removeAll(keepingCapacity: true)
    pendingBase = nextGeneration + 1
  }

  /// Handles a run's `ended` message.
  @inlinable
  mutating func ended(_ generation: UInt64) {
    if !causes.isEmpty { causes.removeValue(forKey: generation) }
    if let run = live.removeValue(forKey: generation) {
      if let id = run.id, generationOfID[id] == generation { generationOfID.removeValue(forKey: id) }
      observer?(.ended(run: generation, id: run.id?.description))
    } else {
      winding.removeValue(forKey: generation)
      observer?(.ended(run: generation, id: nil))
    }
  }

  /// Cancels every run (pending ones never start; with `finishing`, runs
  /// started with `onFinish: .runToCompletion` are left running) and hands
  /// back every task not yet returned, for the host to await, except the
  /// run with generation `excluding` (the caller's own, which cannot wait
  /// for itself; it is cancelled all the same).
  @inlinable
  mutating func cancelAll(finishing: Bool = false, excluding: UInt64? = nil) -> [Task<Void, Never>] {
    var tasks: [Task<Void, Never>] = []
    for (generation, run) in live {
      if !(finishing && run.survivesFinish) {
        run.task.cancel()
        observer?(.cancelled(run: generation, id: run.id?.description))
      }
      if generation != excluding { tasks.append(run.task) }
    }
    for (generation, task) in winding where generation != excluding { tasks.append(task) }
    if let excluding, let own = winding[excluding] { own.cancel() }
    if storage != nil {
      books.live.removeAll()
      books.winding.removeAll()
      books.generationOfID.removeAll()
      books.throttleWindows.removeAll()
      books.causes.removeAll()
      books.pending.removeAll()
      books.pendingBase = books.nextGeneration + 1
    }
    return tasks
  }

  @inlinable
  mutating func record(_ run: Effect<Input, Output>.Run) {
    nextGeneration &+= 1
    let generation = nextGeneration
    pending.append(run)
    if let currentCause { causes[generation] = currentCause }
    // One lookup both claims the id and finds the run it supersedes.
    if let id = run.id, let superseded = generationOfID.updateValue(generation, forKey: id) {
      cancel(superseded, superseding: true)
    }
  }

  /// Starts runs through a ``StartLane`` from now on, even where they could
  /// start immediately: how a test on Linux takes the path of Apple OSes
  /// below 26, for this runner alone.
  mutating func startThroughLane() {
    if storage?.books.startLane == nil { books.startLane = StartLane() }
  }

  /// Starts `run`'s task: immediately where `Task.immediateDetached`
  /// exists, unless `lane` is given; through `lane` otherwise.
  @inlinable
  func start(
    _ run: Effect<Input, Output>.Run, generation: UInt64, host: UInt64, counters: LifetimeCounters,
    lane: StartLane?, sink: @escaping @Sendable (EffectMessage<Input>) -> Void
  ) -> Task<Void, Never> {
    let token = EffectRunToken.make(generation: generation, sink: sink)
    let operation = run.operation
    let scope = EffectScope(host: host, generation: generation, cause: cause(of: generation))
    counters.effectCount.increment()
    // Detached: a defined context (no sender's task-locals or priority),
    // and it does not run on the host's actor. Immediate: the operation
    // runs here, on this thread, up to its first suspension, so runs begin
    // in the order they were performed (as Rx subscribes at the trigger);
    // after that it runs concurrently with the host. Through the lane
    // (below OS 26): the same order, but the first slice runs on the lane's
    // queue, after the first slices of the host's runs started before it.
    let body: @Sendable () async -> Void = {
      await EffectScope.with(scope) { await operation(Send(run: token)) }
      token.markReturned()
      // Uncounted before the runner hears of the end: once it forgets this
      // task (and `finish()` stops waiting for it), the count is exact.
      counters.effectCount.decrement()
      sink(.ended(generation: generation))
    }
    // In a test bubble the run prefers the bubble's counting executor.
    if let preferred = TaskScope.preferred,
      let task = TaskScope.detached(
        preferring: preferred,
        named: "effect run \(run.id?.description ?? "with no id") sending \(TaskScope.typeName(Input.self))",
        priority: run.priority, immediate: true, through: lane, body)
    {
      return task
    }
    if let lane {
      return lane.detached(on: nil, priority: run.priority, body)
    }
    #if !ACTORMVVM_APPLE_BELOW_26
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return Task.immediateDetached(priority: run.priority, operation: body)
      }
    #endif
    return Task.detached(priority: run.priority, operation: body)
  }

  /// Whether runs start immediately (`Task.immediateDetached`, OS 26 and
  /// Linux) rather than through a ``StartLane`` (Apple OSes below 26, and
  /// builds with `ACTORMVVM_APPLE_BELOW_26`, which take that path on
  /// Linux). Either way runs make their first calls in the order they were
  /// started (Guarantees, row 5).
  @inlinable
  static var startsRunsImmediately: Bool {
    #if ACTORMVVM_APPLE_BELOW_26
      return false
    #else
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
      return false
    #endif
  }

  /// Cancels the run with `generation` (`superseding`: because a run with
  /// its id started); its id mapping is the caller's to update.
  @inlinable
  mutating func cancel(_ generation: UInt64, superseding: Bool = false) {
    if observer != nil { reportCancel(generation, superseding: superseding) }
    if generation >= pendingBase {
      let index = Int(generation - pendingBase)
      if pending[index] != nil {
        pending[index] = nil
        if !causes.isEmpty { causes.removeValue(forKey: generation) }
      }
    } else if let run = live.removeValue(forKey: generation) {
      run.task.cancel()
      winding[generation] = run.task
    }
  }

  /// Tells the observer about a cancellation, if the run is still pending or live.
  @usableFromInline
  func reportCancel(_ generation: UInt64, superseding: Bool) {
    let id: AnyCancelID??
    if generation >= pendingBase {
      id = pending[Int(generation - pendingBase)].map { $0.id }
    } else {
      id = live[generation].map { $0.id }
    }
    guard let observer, let id else { return }
    let name = id?.description
    observer(superseding ? .superseded(run: generation, id: name) : .cancelled(run: generation, id: name))
  }
}

/// What happened to an effect run, for a trace.
public enum EffectRunEvent: Sendable, Equatable {
  /// The run's task started. `run` numbers the feature's runs from 1;
  /// `id` describes its cancellation id.
  case started(run: UInt64, id: String?)
  /// A run with the same id started: this one was cancelled (before it
  /// started, if it had not) and its results will be dropped.
  case superseded(run: UInt64, id: String?)
  /// Cancelled by ``Effect/cancel(id:)`` or by `finish()`.
  case cancelled(run: UInt64, id: String?)
  /// The run's operation returned (also after a cancellation).
  case ended(run: UInt64, id: String?)
}
