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
/// - ``merge(_:)``: several of the above, performed in order.
///
/// **Cancellation ids (`flatMapLatest`).** Starting an effect with an id
/// cancels the running effect with the same id first. A cancelled or
/// superseded effect's inputs are discarded when they reach the mailbox,
/// even if its work had already finished and sent them: each run is stamped
/// with a generation, checked where its results re-enter, so stale results
/// never land.
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
/// order they were asked for, before its actor turn ends. A run cancelled or
/// superseded within its batch is never started, so its operation must not
/// be relied on for side effects: a burst of superseding searches starts one
/// task, for the last of them.
public struct Effect<Input: Sendable, Output: Sendable>: Sendable {
  @usableFromInline
  enum Kind: Sendable {
    case none
    case emit(Output)
    case run(Run)
    case cancel(AnyCancelID)
    case merge([Effect])
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
}
