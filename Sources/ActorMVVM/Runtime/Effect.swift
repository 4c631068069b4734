import ActorMVVMRuntimeShims

/// What a transition asks the runtime to do after it has changed the state.
///
/// Effects are values: a `reduce` returns one, and the ``Feature`` (or the
/// `FeatureTester`) performs it. The kinds:
///
/// - ``none``: nothing.
/// - ``emit(_:)``: deliver an output to every subscriber, in order, before
///   the next input is reduced.
/// - ``run(id:priority:onFinish:operation:)``: start async work, concurrently
///   with the mailbox, that feeds inputs back through ``Send``.
/// - ``run(id:priority:onFinish:operation:catch:)``: the same for throwing
///   work; an error, with its type, becomes the input `catch` makes of it
///   (failures are values).
/// - ``task(id:priority:onFinish:operation:catch:)``: one async result mapped
///   to one input.
/// - ``cancel(id:)``: cancel the running effect with that id.
/// - `throttle(id:for:clock:latest:)`: a run
///   admitted at most once per interval for its id (Rx's `throttle`, for
///   an input handled in `reduce`).
/// - `merge(_:)`: several of the above, performed in order.
///
/// **Cancellation ids (`flatMapLatest`).** Starting an effect with an id
/// cancels the running effect with the same id first. A cancelled or
/// superseded effect's inputs are discarded when they reach the mailbox,
/// even if its work had already finished and sent them: each run is stamped
/// with a generation, checked where its results re-enter, so stale results
/// never land. The convention here: each machine declares its ids as one
/// `enum CancelID: Hashable, Sendable { case search, … }` and writes
/// `.run(id: CancelID.search)`; ids are compared with their type, so two
/// machines' `CancelID.load` never collide, and ``Scope`` keeps a child's
/// ids apart from its parent's.
///
/// **When a feature finishes.** ``Feature/finish()`` (and releasing the
/// feature) cancels every run, unless it was started with
/// `onFinish: .runToCompletion`: such a run is left to finish (and
/// `finish()` waits for it), so a save asked for by the last input is made
/// even when the save checks for cancellation first. Its inputs are
/// discarded: the feature has finished.
///
/// **Where runs execute.** Each run is a detached task: it does not inherit
/// the task-locals or the priority of whichever task sent the input; its
/// priority is the `priority` given here (the default priority if nil).
///
/// **When runs start.** A feature reduces its mailbox a batch at a time and
/// starts the runs that batch asked for once the batch is reduced, in the
/// order they were asked for, before its actor turn ends, and each run's
/// operation runs until its first suspension before the next run's begins
/// — as Rx subscribes at the trigger — so the first call each run makes (a
/// use case, an actor) is made in the order of the inputs that asked for
/// them. Where: on OS 26 (and Linux) the operation begins at once, on the
/// feature's thread (not isolated to the feature), and until it suspends
/// the feature reduces nothing else, so keep that first stretch short;
/// below OS 26 it begins on the feature's start lane, a serial queue that
/// runs the first slices one at a time in that order, while the feature
/// goes on. A run cancelled or superseded within its batch is
/// never started, so its operation must not be relied on for side effects:
/// a burst of superseding searches starts one task, for the last of them.
public struct Effect<Input: Sendable, Output: Sendable>: Sendable {
  /// The cases that hold standard-library types of no fixed layout
  /// (`TaskPriority`, `AnyHashable`) are boxed: then `Kind`'s layout is
  /// known where it is specialised, and `.none` (most inputs' effect) is
  /// copied, matched and destroyed inline, not through value witnesses.
  @usableFromInline
  enum Kind: Sendable {
    case none
    case emit(Output)
    indirect case run(Run)
    indirect case cancel(AnyCancelID)
    case merge([Effect])
    indirect case throttle(Throttled)
    /// An input the feature reduces right after this transition, before
    /// anything else: a ``Scope``'s child output routed with
    /// ``ChildOutputRoute/send(_:)``.
    indirect case sendBack(Input)
  }

  @usableFromInline
  struct Run: Sendable {
    @usableFromInline let id: AnyCancelID?
    @usableFromInline let priority: TaskPriority?
    @usableFromInline let onFinish: EffectFinishBehavior
    @usableFromInline let operation: @Sendable (Send<Input>) async -> Void

    @inlinable
    init(
      id: AnyCancelID?, priority: TaskPriority?, onFinish: EffectFinishBehavior,
      operation: @escaping @Sendable (Send<Input>) async -> Void
    ) {
      self.id = id
      self.priority = priority
      self.onFinish = onFinish
      self.operation = operation
    }
  }

  @usableFromInline let kind: Kind

  @inlinable
  init(kind: Kind) { self.kind = kind }

  /// Does nothing.
  @inlinable
  public static var none: Effect { Effect(kind: .none) }

  /// Emits `output` to the feature's output subscribers.
  @inlinable
  public static func emit(_ output: Output) -> Effect { Effect(kind: .emit(output)) }

  /// Runs `operation` off the feature's actor, in a detached task. It may
  /// send any number of inputs back while it runs; they are reduced in the
  /// order it sent them.
  /// - Parameters:
  ///   - id: starting this effect cancels the running one with the same id.
  ///   - priority: the task's priority (the default priority if nil).
  ///   - onFinish: whether finishing the feature cancels this run
  ///     (`.cancel`, the default) or lets it complete (`.runToCompletion`).
  ///   - operation: the work; it sends inputs back through its ``Send``.
  @inlinable
  public static func run(
    id: (any Hashable & Sendable)? = nil,
    priority: TaskPriority? = nil,
    onFinish: EffectFinishBehavior = .cancel,
    operation: @escaping @Sendable (Send<Input>) async -> Void
  ) -> Effect {
    Effect(
      kind: .run(Run(id: id.map(AnyCancelID.init), priority: priority, onFinish: onFinish, operation: operation)))
  }

  /// Runs throwing work; if it throws, `catch` turns the error into an input,
  /// which is reduced like any other (unless the effect was cancelled). The
  /// error keeps its type: with an operation that `throws(WeatherError)`,
  /// `catch` receives a `WeatherError`, so `catch: { .failed($0) }` compiles
  /// against a typed failure input. (An untyped operation gives `any Error`.)
  @inlinable
  public static func run<Failure: Error>(
    id: (any Hashable & Sendable)? = nil,
    priority: TaskPriority? = nil,
    onFinish: EffectFinishBehavior = .cancel,
    operation: @escaping @Sendable (Send<Input>) async throws(Failure) -> Void,
    catch: @escaping @Sendable (Failure) -> Input
  ) -> Effect {
    run(id: id, priority: priority, onFinish: onFinish) { send in
      do throws(Failure) { try await operation(send) } catch { send(`catch`(error)) }
    }
  }

  /// Runs one async computation and feeds its result back as an input: the
  /// replacement for subscribing to a `Single`. The error keeps its type, as
  /// in ``run(id:priority:onFinish:operation:catch:)``.
  @inlinable
  public static func task<Failure: Error>(
    id: (any Hashable & Sendable)? = nil,
    priority: TaskPriority? = nil,
    onFinish: EffectFinishBehavior = .cancel,
    operation: @escaping @Sendable () async throws(Failure) -> Input,
    catch: @escaping @Sendable (Failure) -> Input
  ) -> Effect {
    run(id: id, priority: priority, onFinish: onFinish) { send in
      do throws(Failure) { send(try await operation()) } catch { send(`catch`(error)) }
    }
  }

  /// Runs one async computation that cannot fail and feeds its result back
  /// as an input: ``task(id:priority:onFinish:operation:catch:)`` with no
  /// `catch`. Like every run it starts in input order, is cancelled by a
  /// newer run with its `id`, by ``cancel(id:)`` or by `finish()` (per
  /// `onFinish`), and a cancelled run's result is discarded.
  @inlinable
  public static func task(
    id: (any Hashable & Sendable)? = nil,
    priority: TaskPriority? = nil,
    onFinish: EffectFinishBehavior = .cancel,
    operation: @escaping @Sendable () async -> Input
  ) -> Effect {
    run(id: id, priority: priority, onFinish: onFinish) { send in send(await operation()) }
  }

  /// Cancels the running effect with `id`, if any; its pending results are discarded.
  @inlinable
  public static func cancel(id: any Hashable & Sendable) -> Effect {
    Effect(kind: .cancel(AnyCancelID(id)))
  }

  /// Performs `effects` in order.
  @inlinable
  public static func merge(_ effects: Effect...) -> Effect { merge(effects) }

  /// Performs `effects` in order.
  @inlinable
  public static func merge(_ effects: [Effect]) -> Effect {
    switch effects.count {
    case 0: .none
    case 1: effects[0]
    default: Effect(kind: .merge(effects))
    }
  }
}

// MARK: - Composition

extension Effect {
  /// This effect for a parent machine: every input its runs send goes
  /// through `input`, every output it emits through `output`. Ids,
  /// priorities, `onFinish` and the order of merged effects are kept, so a
  /// child's `flatMapLatest` (a run with an id) still supersedes its own
  /// previous run inside the parent. A mapped run's inputs are checked
  /// against the parent run's generation, as any run's are: stale results
  /// stay dropped. Ids are compared with their type, and kept as they are:
  /// to keep two children of one type apart, or a child's ids apart from
  /// its parent's, use ``Scope``, which puts its child's ids in a namespace
  /// of their own.
  @inlinable
  public func map<ParentInput: Sendable, ParentOutput: Sendable>(
    input: @escaping @Sendable (Input) -> ParentInput,
    output: @escaping @Sendable (Output) -> ParentOutput
  ) -> Effect<ParentInput, ParentOutput> {
    map(input: input, output: output, namespace: { nil })
  }

  /// ``map(input:output:)``, with every id put in `namespace` (a
  /// ``Scope``'s child path): ids are equal only when both the namespace and
  /// the id are.
  /// With `identifyingAll`, a run with no id gets a unique one in the
  /// namespace (``ChildRunID``), so a ``NamespaceCancellation`` reaches it.
  @inlinable
  func map<ParentInput: Sendable, ParentOutput: Sendable>(
    input: @escaping @Sendable (Input) -> ParentInput,
    output: @escaping @Sendable (Output) -> ParentOutput,
    namespace: () -> AnyCancelID?,
    identifyingAll: Bool = false
  ) -> Effect<ParentInput, ParentOutput> {
    map(input: input, route: { .emit(output($0)) }, namespace: namespace, identifyingAll: identifyingAll)
  }

  /// ``map(input:output:namespace:identifyingAll:)`` with each output
  /// routed (``ChildOutputRoute``): emitted as a parent output, sent back as
  /// a parent input (reduced right after the transition), or dropped.
  @inlinable
  func map<ParentInput: Sendable, ParentOutput: Sendable>(
    input: @escaping @Sendable (Input) -> ParentInput,
    route: @escaping @Sendable (Output) -> ChildOutputRoute<ParentInput, ParentOutput>,
    namespace: () -> AnyCancelID?,
    identifyingAll: Bool = false
  ) -> Effect<ParentInput, ParentOutput> {
    // The namespace is made only for an effect that has an id.
    func scoped(_ id: AnyCancelID) -> AnyCancelID {
      namespace().map { AnyCancelID(ScopedCancelID(namespace: $0, id: id)) } ?? id
    }
    switch kind {
    case .none: return .none
    case .emit(let value):
      switch route(value) {
      case .emit(let output): return .emit(output)
      case .send(let input): return Effect<ParentInput, ParentOutput>(kind: .sendBack(input))
      case .drop: return .none
      }
    case .cancel(let id): return Effect<ParentInput, ParentOutput>(kind: .cancel(scoped(id)))
    case .sendBack(let value): return Effect<ParentInput, ParentOutput>(kind: .sendBack(input(value)))
    case .merge(let effects):
      return .merge(
        effects.map { $0.map(input: input, route: route, namespace: namespace, identifyingAll: identifyingAll) })
    case .run(let run):
      let identified = identifyingAll ? run.identified : run
      return Effect<ParentInput, ParentOutput>(kind: .run(identified.map(input: input, id: scoped)))
    case .throttle(let throttled):
      // An admitted throttled run starts as a plain run: it needs an id of
      // its own as much as one, so a child's removal reaches it too.
      let run = identifyingAll ? throttled.run.identified : throttled.run
      return Effect<ParentInput, ParentOutput>(
        kind: .throttle(
          .init(
            id: scoped(throttled.id), latest: throttled.latest, window: throttled.window,
            run: run.map(input: input, id: scoped))))
    }
  }
}

extension Effect.Run {
  /// This run with a unique id (``ChildRunID``) if it has none.
  @inlinable
  var identified: Self {
    id == nil ? Self(id: AnyCancelID(ChildRunID()), priority: priority, onFinish: onFinish, operation: operation) : self
  }
}

extension Effect.Run {
  /// This run for a parent: its inputs through `input`, its id through `id`.
  @inlinable
  func map<ParentInput: Sendable, ParentOutput: Sendable>(
    input: @escaping @Sendable (Input) -> ParentInput, id scoped: (AnyCancelID) -> AnyCancelID
  ) -> Effect<ParentInput, ParentOutput>.Run {
    let operation = self.operation
    return .init(id: id.map(scoped), priority: priority, onFinish: onFinish) { send in
      await operation(Send(run: EffectRunToken.mapping(send.run, input)))
    }
  }
}

/// A child's cancellation id inside a ``Scope``: the scope's child path and
/// the child's own id. Traces show it as `path/id`.
@usableFromInline
struct ScopedCancelID: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let namespace: AnyCancelID
  @usableFromInline let id: AnyCancelID

  @inlinable
  init(namespace: AnyCancelID, id: AnyCancelID) {
    self.namespace = namespace
    self.id = id
  }

  @usableFromInline var description: String { "\(namespace.description)/\(id.description)" }
}

/// A child ``StateMachine`` run inside a parent's `reduce`, on one part of
/// the parent's state: composition without a second ``Feature`` (TCA's
/// ``Scope``). The parent keeps the child's state in a field, wraps the
/// child's inputs in one of its own cases, and maps the child's outputs to
/// its own outputs.
///
/// ```swift
/// struct SignUp: StateMachine {
///   struct State: Equatable, Sendable { var credentials = Credentials.State(); var step = 1 }
///   enum Input: Sendable { case credentials(Credentials.Input), nextTapped }
///   enum Output: Sendable { case credentials(Credentials.Output) }
///   let credentials = Scope(Credentials(), state: \State.credentials,
///     input: { if case .credentials(let input) = $0 { input } else { nil } },
///     embed: Input.credentials, output: Output.credentials)
///
///   func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
///     if let effect = credentials.reduce(into: &state, input) { return effect }
///     // the parent's own inputs …
///   }
/// }
/// ```
///
/// The child is reduced synchronously, inside the parent's transition, so
/// the parent's guarantees (one input at a time, mailbox order, stale
/// results dropped) hold for the child as they do for the parent.
///
/// **Cancellation ids are scoped.** A scope puts its child's ids in a
/// namespace named by the child's state path (`\State.from`): a child's run
/// with an id supersedes, and its `.cancel(id:)` cancels, only the child's
/// own run with that id *in the same scope*. Two scopes of one child type
/// (a "from" and a "to" search field) never cancel each other, and a
/// child's id never equals its parent's, whatever their types and values.
/// Scopes nest: a grandchild's ids are namespaced by both paths. Traces show
/// a scoped id as `from/lookup`.
public struct Scope<ParentState, ParentInput: Sendable, ParentOutput: Sendable, Child: StateMachine>: Sendable {
  /// The child machine this scope reduces.
  public let child: Child
  @usableFromInline let state: WritableKeyPath<ParentState, Child.State> & Sendable
  @usableFromInline let extract: @Sendable (ParentInput) -> Child.Input?
  @usableFromInline let embed: @Sendable (Child.Input) -> ParentInput
  @usableFromInline let route: @Sendable (Child.Output) -> ChildOutputRoute<ParentInput, ParentOutput>

  /// - Parameters:
  ///   - child: the child machine.
  ///   - state: where the parent keeps the child's state.
  ///   - input: the child's input inside a parent input, or nil if it is
  ///     not one of the child's.
  ///   - embed: the parent input that carries a child input (results the
  ///     child's effects send come back through it).
  ///   - output: the parent output for each child output.
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, Child.State> & Sendable,
    input: @escaping @Sendable (ParentInput) -> Child.Input?,
    embed: @escaping @Sendable (Child.Input) -> ParentInput,
    output: @escaping @Sendable (Child.Output) -> ParentOutput
  ) {
    self.init(child, state: state, input: input, embed: embed, routeOutput: { .emit(output($0)) })
  }

  /// A scope whose parent decides, output by output, what a child's output
  /// becomes (``ChildOutputRoute``): a parent output, a parent input the
  /// parent listens with, or nothing. A screen that only renders a child's
  /// state drops its outputs; one that reacts to them (a form's `submitted`)
  /// hears them as its own input:
  ///
  /// ```swift
  /// let search: Scope<State, Input, Never, SearchBox> = Scope(SearchBox(), state: \State.search,
  ///   input: { if case .search(let input) = $0 { input } else { nil } }, embed: Input.search,
  ///   routeOutput: { output in
  ///     switch output {
  ///     case .submitted(let query): .send(.searchSubmitted(query))  // the parent reduces it
  ///     case .cleared: .drop
  ///     }
  ///   })
  /// ```
  ///
  /// A sent input is reduced as the next transition, right after the one
  /// whose child output it is and before any other input (of the same
  /// batch too), under the same cause, with origin `.fedBack`: the parent
  /// sees the child's state that produced it.
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, Child.State> & Sendable,
    input: @escaping @Sendable (ParentInput) -> Child.Input?,
    embed: @escaping @Sendable (Child.Input) -> ParentInput,
    routeOutput: @escaping @Sendable (Child.Output) -> ChildOutputRoute<ParentInput, ParentOutput>
  ) {
    self.child = child
    self.state = state
    self.extract = input
    self.embed = embed
    self.route = routeOutput
  }

  /// A scope for a child with no outputs (`Output == Never`), such as a
  /// form's fields: the same as the full initialiser without `output`.
  public init(
    _ child: Child,
    state: WritableKeyPath<ParentState, Child.State> & Sendable,
    input: @escaping @Sendable (ParentInput) -> Child.Input?,
    embed: @escaping @Sendable (Child.Input) -> ParentInput
  ) where Child.Output == Never {
    self.init(child, state: state, input: input, embed: embed, routeOutput: { _ -> ChildOutputRoute in })
  }

  /// Reduces `input` with the child if it is one of the child's inputs and
  /// returns the child's effect mapped to the parent; nil otherwise, for
  /// the parent to handle.
  @inlinable
  public func reduce(into parent: inout ParentState, _ input: ParentInput) -> Effect<ParentInput, ParentOutput>? {
    guard let childInput = extract(input) else { return nil }
    return reduce(into: &parent, child: childInput)
  }

  /// Reduces one of the child's own inputs on the parent's behalf: for a
  /// parent input the child must hear about under another name (a game's
  /// `nextRoundFetched` is its records' `roundWon`). Runs synchronously,
  /// inside the parent's transition, like the other `reduce`; merge the
  /// effect it returns into the parent's.
  @inlinable
  public func reduce(into parent: inout ParentState, child input: Child.Input) -> Effect<ParentInput, ParentOutput> {
    // The child's ids go in a namespace named by its state's path.
    let path = state
    return child.reduce(into: &parent[keyPath: state], input).map(
      input: embed, route: route, namespace: { AnyCancelID(ScopeNamespace(path: path)) })
  }
}

/// What a ``Scope``'s child output becomes in its parent.
public enum ChildOutputRoute<ParentInput: Sendable, ParentOutput: Sendable>: Sendable {
  /// Emitted as this parent output, in the transition (as the child emitted it).
  case emit(ParentOutput)
  /// Sent back to the parent as this input, reduced as the next
  /// transition, right after the one that emitted the child's output.
  case send(ParentInput)
  /// Dropped: the parent neither emits nor hears it.
  case drop
}

/// A scope's namespace: the path of its child's state in the parent's.
@usableFromInline
struct ScopeNamespace: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let path: AnyKeyPath & Sendable

  @usableFromInline init(path: AnyKeyPath & Sendable) { self.path = path }

  @usableFromInline static func == (lhs: Self, rhs: Self) -> Bool { lhs.path == rhs.path }
  @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(path) }

  @usableFromInline var description: String {
    let text = "\(path)"
    return text.split(separator: ".").last.map(String.init) ?? text
  }
}

/// The function from an uninhabited type: never called.
@usableFromInline
func absurd<T>(_ never: Never) -> T {}

/// What finishing a feature does to an effect run that is still going.
public enum EffectFinishBehavior: Sendable, Equatable {
  /// `finish()` (or releasing the feature) cancels the run: the default,
  /// Rx's `DisposeBag`.
  case cancel
  /// The run is not cancelled; `finish()` waits for it to return. For work
  /// that must not be lost when the screen goes away, such as saving what
  /// the last input changed. Its inputs are discarded (the feature has
  /// finished), and it must end on its own.
  case runToCompletion
}

/// A type-erased, `Sendable` cancellation id.
///
/// Hashed once, when wrapped, so a dictionary of ids never hashes through
/// the existential again; equality checks that hash and the dynamic type
/// before opening the existential to compare values. Nothing is allocated
/// for small ids (an enum case, an `Int`, a short string), which live in the
/// existential's inline buffer. (`AnyCancelID` is internal, so `base` is
/// never one itself.)
@usableFromInline
struct AnyCancelID: Hashable, Sendable {
  @usableFromInline let base: any Hashable & Sendable
  @usableFromInline let hash: Int

  @inlinable
  init(_ base: any Hashable & Sendable) {
    self.base = base
    var hasher = Hasher()
    hasher.combine(ObjectIdentifier(type(of: base)))
    base.hash(into: &hasher)
    hash = hasher.finalize()
  }

  @usableFromInline
  static func == (lhs: AnyCancelID, rhs: AnyCancelID) -> Bool {
    guard lhs.hash == rhs.hash, type(of: lhs.base) == type(of: rhs.base) else { return false }
    func equals<T: Hashable & Sendable>(_ value: T) -> Bool { (rhs.base as? T) == value }
    return equals(lhs.base)
  }

  @inlinable
  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// The id as a trace shows it.
  @usableFromInline var description: String { String(describing: base) }

  /// Whether a scope made this id (one check for a plain id's `.cancel`).
  @inlinable var isScoped: Bool { base is ScopedCancelID || base is NamespaceCancellation }

  /// Whether this is a ``NamespaceCancellation``, under any outer scopes.
  @usableFromInline var cancelsNamespace: Bool {
    if base is NamespaceCancellation { return true }
    return (base as? ScopedCancelID)?.id.cancelsNamespace ?? false
  }

  /// Whether this id is in the namespace `cancellation` names: the same
  /// outer scopes, then the namespace itself. A held throttle run's id is
  /// its throttle id's.
  @usableFromInline func lies(inside cancellation: AnyCancelID) -> Bool {
    if let held = base as? ThrottleHeldID { return held.id.lies(inside: cancellation) }
    guard let scoped = base as? ScopedCancelID else { return false }
    if let whole = cancellation.base as? NamespaceCancellation { return scoped.namespace == whole.namespace }
    guard let outer = cancellation.base as? ScopedCancelID, outer.namespace == scoped.namespace else { return false }
    return scoped.id.lies(inside: outer.id)
  }
}

/// A `.cancel` of everything a scope's child started: every id in
/// `namespace` (a removed element's, a dismissed optional child's).
@usableFromInline
struct NamespaceCancellation: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let namespace: AnyCancelID

  @usableFromInline init(namespace: AnyCancelID) { self.namespace = namespace }

  @usableFromInline var description: String { "\(namespace.description)/*" }
}

/// The id a child in a collection or an optional scope gives a run that has
/// none, so the child's removal can cancel it: unique, so it supersedes
/// nothing.
@usableFromInline
struct ChildRunID: Hashable, Sendable, CustomStringConvertible {
  @usableFromInline let serial: UInt64

  @usableFromInline init() { serial = actormvvm_next_child_run_id() }

  @usableFromInline var description: String { "run\(serial)" }
}
