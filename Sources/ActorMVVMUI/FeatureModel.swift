import ActorMVVM
import Observation

/// A `Feature` seen from a view: a main-actor, `Observable` model that
/// holds the feature's current state, sends it inputs, binds state fields
/// to inputs, and hands its outputs to the view. It replaces the
/// `Driver`s, `bind(to:)`s and render loops of an RxSwift screen.
///
/// ```swift
/// @MainActor final class SearchScreen {
///   let model: FeatureModel<Search>
///   init(feature: Feature<Search>) {
///     model = FeatureModel(feature) { output in /* navigate, alert, … */ }
///   }
///   func render() {
///     _ = model.query          // tracked: re-render when `query` changes
///     _ = model.isLoading      // … or `isLoading`, and nothing else
///   }
/// }
/// ```
///
/// ## Concurrency contract
/// - **Isolation.** Everything here is `@MainActor`; a view reads and
///   writes it from the main actor only.
/// - **One hop per batch.** The model follows the feature's state with one
///   main-actor task over `Feature/stateValues`: one main-actor hop per
///   published state (a feature publishes once per batch of inputs), never
///   one per field. States are conflated: a main actor that falls behind
///   sees the latest state, not every intermediate one.
/// - **Observation per field.** Reading a field through dynamic member
///   lookup (`model.query`) tracks that field alone: an observer is
///   invalidated when the field's value changes, not when another field
///   does. Reading ``state`` tracks the whole state. Non-`Equatable` fields
///   read through dynamic member lookup are tracked as the whole state.
/// - **Outputs** are delivered to `onOutput` on the main actor, each
///   exactly once, in order; before one is delivered, the model applies the
///   feature's latest published state (the state that produced the output,
///   or a later one), as `Feature` publishes state before its outputs.
///   Outputs emitted before the model was created are not delivered, and
///   are not waited for: the model counts outputs from its own
///   subscription. Under a bounded `outputBuffering` the feature drops the
///   outputs its policy does not keep while the model is behind: those are
///   never delivered, and the waits count them as done.
/// - **Bindings.** A ``binding(_:send:)`` write shows at once; once the
///   feature has reduced the input it sent, the model shows the feature's
///   published state again — so a write the machine refuses or transforms
///   (a 5-character code into a 4-character field) snaps back to what the
///   feature holds, even when that state was not republished. A binding
///   holds the model weakly: used after the model is released, a write does
///   nothing and a read returns the last value it read.
/// - **Starting.** `init` subscribes to the feature (synchronously: nothing
///   published after it returns is missed) but starts no task. The model
///   starts following — two main-actor tasks, one for states and one for
///   outputs — the first time it is read, written or waited on (``state``,
///   a field, ``send(_:)``, ``binding(_:send:)``, ``settled(timeout:)``,
///   ``caughtUp()``), or at ``start()``. Until then, states and outputs
///   wait in the subscriptions: outputs emitted meanwhile are delivered,
///   in order, once it starts. A model kept only for its outputs calls
///   ``start()``.
/// - **Lifetime.** Releasing the model ends its tasks; it does not
///   finish the feature (whoever made the feature finishes it). When the
///   feature finishes, the model keeps its final state.
@MainActor
@dynamicMemberLookup
public final class FeatureModel<Machine: StateMachine>: Observable {
  /// The machine's state.
  public typealias State = Machine.State
  /// The machine's inputs.
  public typealias Input = Machine.Input
  /// The machine's outputs.
  public typealias Output = Machine.Output

  /// The feature this model follows.
  public let feature: Feature<Machine>

  @usableFromInline var current: State
  let registrar = ObservationRegistrar()
  var fields: [AnyKeyPath: FieldObservation<Machine>] = [:]
  var deliveredOutputs = 0
  /// Outputs the feature's bounded output buffering dropped before this
  /// model could deliver them (`outputBuffering`); 0 when unbounded.
  var droppedOutputs = 0
  /// The feature's output count when this model subscribed: outputs before
  /// it are not this model's to deliver.
  var outputBaseline = 0
  /// The publication (``Feature``'s state version) the model shows; nil
  /// while it shows a binding's local write not yet reduced.
  var appliedVersion: UInt64?
  var appliedStates = 0
  var settleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  var nextWaiter: UInt64 = 0
  var followers: [Task<Void, Never>] = []
  /// The subscriptions made in `init`, until ``start()`` iterates them.
  var unstarted: (states: StateRelay<State>.Values, outputs: EventRelay<Output>.Values)?
  /// Called on the main actor with each output, in order, exactly once:
  /// the one given to `init`, or one set later. Set it before the model
  /// starts (its first read, write, wait or ``start()``): an output
  /// delivered while it is nil goes nowhere. Setting it right after `init`
  /// lets a view keep the model in a `let` and still capture `self`:
  ///
  /// ```swift
  /// model = FeatureModel(feature)
  /// model.onOutput = { [unowned self] output in … }
  /// ```
  public var onOutput: (@MainActor (Output) -> Void)?

  /// Follows `feature` from now on: its current published state at once,
  /// then, once started (see the type's doc), every state it publishes and
  /// every output it emits.
  /// - Parameters:
  ///   - feature: the feature to follow; the model does not finish it.
  ///   - onOutput: called on the main actor with each output, in order,
  ///     exactly once.
  public init(_ feature: Feature<Machine>, onOutput: (@MainActor (Output) -> Void)? = nil) {
    self.feature = feature
    self.onOutput = onOutput
    // Subscribed here, synchronously: nothing published after `init`
    // returns is missed.
    let states = feature.stateValues
    let outputs = feature.outputValues
    // Read after subscribing: an output emitted while this runs is counted
    // as before the model (never waited for), never as one it must deliver.
    outputBaseline = feature.emittedOutputCount
    let (initial, version) = feature.versionedState
    current = initial
    appliedVersion = version
    unstarted = (states, outputs)
  }

  /// Starts following the feature: one main-actor task applies each state
  /// it publishes, one delivers each output. Idempotent; the first read,
  /// write or wait calls it, so only a model kept for its outputs alone
  /// needs to.
  public func start() {
    guard let (states, outputs) = unstarted else { return }
    unstarted = nil
    followers = [
      Task { [weak self] in
        for await _ in states {
          guard let self else { return }
          self.applyPublished()
        }
      },
      Task { [weak self] in
        var iterator = outputs.makeAsyncIterator()
        while let output = await iterator.next(isolation: #isolation) {
          guard let self else { return }
          self.applyPublished()
          self.droppedOutputs = iterator.droppedCount
          self.deliveredOutputs += 1
          self.onOutput?(output)
          self.resumeSettledWaiters()
        }
      },
    ]
  }

  @inline(__always) func startIfNeeded() {
    if unstarted != nil { start() }
  }

  /// Whether ``start()`` has run (for tests of the contract).
  package var isStarted: Bool { unstarted == nil }

  // Nothing can be waiting in `settled()` here: a waiter holds the model.
  deinit {
    for task in followers { task.cancel() }
  }

  // MARK: Reading

  /// The whole state. Reading it tracks every field; prefer reading fields
  /// through dynamic member lookup (`model.query`) in a view.
  public var state: State {
    startIfNeeded()
    registrar.access(self, keyPath: \.state)
    return current
  }

  /// One field of the state; tracks that field alone (see the type's doc).
  public subscript<Value: Equatable>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    startIfNeeded()
    field(keyPath).access(self)
    return current[keyPath: keyPath]
  }

  /// One non-`Equatable` field of the state; tracks the whole state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    startIfNeeded()
    registrar.access(self, keyPath: \.state)
    return current[keyPath: keyPath]
  }

  // MARK: Writing

  /// Sends `input` to the feature (`Feature/send(_:)`): never suspends.
  public func send(_ input: Input) {
    startIfNeeded()
    feature.send(input)
  }

  /// A two-way binding of a state field to an input case, for a text
  /// field or a toggle: `get` reads the field (tracked), `set` writes the
  /// value into this model's state at once, so the control reads back what
  /// the user typed, and sends `input(value)`. The feature's next published
  /// state replaces the written value (with the same value, when the
  /// machine stores what it was sent).
  public func binding<Value: Equatable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable, send input: @escaping @Sendable (Value) -> Input
  ) -> FieldBinding<Value> {
    startIfNeeded()
    let last = LastValue(current[keyPath: keyPath])
    return FieldBinding(
      get: { [weak self] in
        guard let self else { return last.value }
        last.value = self[dynamicMember: keyPath]
        return last.value
      },
      set: { [weak self] value in
        guard let self else { return }
        var next = current
        next[keyPath: keyPath] = value
        apply(next, version: nil, counted: false)
        last.value = value
        feature.send(input(value))
        resyncAfterReduce()
      })
  }

  /// Once the feature has reduced what was sent so far, shows its published
  /// state again (a refused write published nothing to bring it back).
  func resyncAfterReduce() {
    let feature = self.feature
    resyncs += 1
    Task { [weak self] in
      await feature.flush()
      guard let self else { return }
      self.resyncs -= 1
      self.applyPublished()
    }
  }

  // MARK: Tests

  /// Returns once every input sent before the call has been reduced, the
  /// feature's effects have ended (`Feature/idle()`), and this model has
  /// applied the feature's published state and delivered every output it
  /// emitted. For tests: after it, assertions on the model are exact.
  ///
  /// Never hangs, never passes silently: if an effect is still running once
  /// `timeout` of real time has passed and then nothing in the process can
  /// run, it throws `FeatureBusy` naming the feature and the effects (by
  /// id) still running, which fails a test that calls it with `try`. The
  /// bound guards against a hang; it is not a pause (it returns as soon as
  /// the effects end), and a machine slowed by load is waited for. An
  /// effect that never ends — a live query, a timer, a sleep on a
  /// `TestClock` the test has not advanced — is the usual cause: wait with
  /// ``caughtUp()`` instead, which leaves effects running. Returns (without
  /// throwing) when the calling task is cancelled.
  ///
  /// Isolation: main actor. Cancellation: returns early, asserting nothing.
  public func settled(timeout: Duration = .seconds(5)) async throws(FeatureBusy) {
    startIfNeeded()
    try await feature.idle(timeout: timeout)
    await feature.flush()
    applyPublished()
    await waitUntilCaughtUp()
  }

  /// Returns once every input sent before the call has been reduced and
  /// this model shows the feature's published state and has delivered
  /// every output emitted so far, without waiting for effects. The wait for
  /// a test whose effects do not end on their own: one asleep on a
  /// `TestClock` (advance the clock, then call this), a live query that
  /// emits on every change, a timer. It cannot hang on an effect; it waits
  /// only for this model to apply what the feature has already published.
  public func caughtUp() async {
    startIfNeeded()
    await feature.flush()
    applyPublished()
    await waitUntilCaughtUp()
  }

  /// Returns once the model is settled, or at once when the calling task
  /// is cancelled.
  func waitUntilCaughtUp() async {
    while !isSettled, !Task.isCancelled {
      let id = nextWaiter
      nextWaiter &+= 1
      await withTaskCancellationHandler {
        // Checked again where the waiter is registered: the `await` itself can
        // let other main-actor jobs run first (in a task with an executor
        // preference — a test bubble — it re-enqueues the task on the main
        // actor), and one of them may be the follower that settles the model.
        await withCheckedContinuation { waiter in
          if isSettled || Task.isCancelled { waiter.resume() } else { settleWaiters[id] = waiter }
        }
      } onCancel: {
        // Runs after the registration above if it races it: both are on the main actor.
        Task { @MainActor [weak self] in self?.settleWaiters.removeValue(forKey: id)?.resume() }
      }
    }
  }

  /// Published states this model has applied (a state equal to the one it
  /// held counts too). For benchmarks and diagnostics.
  public var appliedStateCount: Int {
    startIfNeeded()
    return appliedStates
  }

  // MARK: Internals

  /// Shows the feature's latest publication, and holds there by its
  /// version (not `==`, which a `NaN` in the state breaks).
  var isSettled: Bool {
    resyncs == 0 && appliedVersion == feature.versionedState.version
      && deliveredOutputs + droppedOutputs >= feature.emittedOutputCount - outputBaseline
  }

  /// Binding writes whose reduction the model has not yet caught up with.
  var resyncs = 0

  /// Applies the feature's latest publication, unless the model shows it
  /// already (then it counts as no applied state).
  func applyPublished() {
    let (state, version) = feature.versionedState
    guard version != appliedVersion else { return resumeSettledWaiters() }
    apply(state, version: version)
  }

  func apply(_ next: State, version: UInt64?, counted: Bool = true) {
    if counted { appliedStates += 1 }
    appliedVersion = version
    defer { if counted { resumeSettledWaiters() } }
    guard next != current else { return }
    let previous = current
    let changed = fields.values.filter { $0.differs(previous, next) }
    registrar.willSet(self, keyPath: \.state)
    for field in changed { field.willSet(self) }
    current = next
    for field in changed { field.didSet(self) }
    registrar.didSet(self, keyPath: \.state)
  }

  func resumeSettledWaiters() {
    guard !settleWaiters.isEmpty, isSettled else { return }
    let waiters = settleWaiters.values
    settleWaiters = [:]
    for waiter in waiters { waiter.resume() }
  }

  func field<Value: Equatable>(_ keyPath: KeyPath<State, Value>) -> FieldObservation<Machine> {
    if let field = fields[keyPath] { return field }
    let modelPath = (\FeatureModel.state).appending(path: keyPath)
    let registrar = registrar
    let field = FieldObservation<Machine>(
      differs: { $0[keyPath: keyPath] != $1[keyPath: keyPath] },
      access: { registrar.access($0, keyPath: modelPath) },
      willSet: { registrar.willSet($0, keyPath: modelPath) },
      didSet: { registrar.didSet($0, keyPath: modelPath) })
    fields[keyPath] = field
    return field
  }
}

/// How a ``FeatureModel`` tracks one field: its own key path in the
/// observation registrar and how to tell whether it changed.
@MainActor
struct FieldObservation<Machine: StateMachine> {
  let differs: (Machine.State, Machine.State) -> Bool
  let access: (FeatureModel<Machine>) -> Void
  let willSet: (FeatureModel<Machine>) -> Void
  let didSet: (FeatureModel<Machine>) -> Void
}

/// The last value a binding read or wrote, for reads after its model is gone.
@MainActor
final class LastValue<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

/// A get/set pair for one state field (``FeatureModel/binding(_:send:)``):
/// what a text field or toggle needs, on every platform. Where SwiftUI is
/// available, `Binding(fieldBinding)` makes a SwiftUI binding of it.
@MainActor
public struct FieldBinding<Value> {
  /// Reads the field (tracked by observation). Main-actor isolated and
  /// `Sendable`, as SwiftUI's `Binding(get:set:)` takes its closures.
  public let get: @MainActor @Sendable () -> Value
  /// Writes the field and sends its input. Main-actor isolated and `Sendable`.
  public let set: @MainActor @Sendable (Value) -> Void

  /// The field's current value; setting it calls ``set``.
  public var wrappedValue: Value {
    get { get() }
    nonmutating set { set(newValue) }
  }
}

#if canImport(SwiftUI)
  import SwiftUI

  extension Binding {
    /// A SwiftUI binding over a ``FieldBinding``.
    @MainActor
    public init(_ field: FieldBinding<Value>) {
      self.init(get: field.get, set: field.set)
    }
  }
#endif
