import ActorMVVMRuntimeShims

/// Who caused an input: a tag a driver (a REPL, a UI test, an analytics
/// layer) puts on the inputs it sends on behalf of one of its own actions,
/// and that the runtime carries through everything those inputs lead to.
///
/// ```swift
/// let tap = Cause(7)
/// await Cause.with(tap) {
///   weather.send(.cityEntered("Seoul"))   // this input is caused by #7
/// }
/// // reduce, the lookup it starts, the results that lookup sends back, the
/// // outputs they emit and the navigation a coordinator does for those
/// // outputs all run with `Cause.current == tap`.
/// ```
///
/// **What carries it.**
/// - ``Feature/send(_:)`` called while a cause is current (inside
///   ``Cause/with(_:_:)``, or inside a run that a caused input started) tags the input.
/// - While a feature reduces a tagged input, the cause is current: a
///   ``FeatureTrace`` sink sees it (the printer appends `(caused by #7)`),
///   and outputs emitted there are tagged.
/// - An effect run started by a tagged input carries the cause: its
///   operation runs with it current, and every input it sends back is
///   reduced under it (even one that arrives after a later, differently
///   caused input).
/// - `AppCoordinator` handles a tagged output, and its navigation step,
///   under the output's cause; screens that step shows get their first
///   input tagged.
///
/// **Cost.** Until the process first calls ``Cause/with(_:_:)``,
/// `send` pays one atomic load of a flag; a feature pays one branch per
/// transition. Untagged inputs never touch a task-local.
///
/// **Not carried:** bindings (``Feature/bind(_:)``) tag nothing (a binding
/// outlives the action that made it), and an effect's ``Send`` used from a
/// task the effect did not await is late and dropped anyway.
public struct Cause: Hashable, Sendable, CustomStringConvertible {
  /// The number the driver gave it.
  public let id: UInt64

  /// A cause numbered `id` (the driver's own numbering: a REPL's command
  /// number, a test's step).
  public init(_ id: UInt64) { self.id = id }

  /// `#id`.
  public var description: String { "#\(id)" }

  /// Set by `with` (and by a feature around a transition): `.some(nil)`
  /// says "no cause" and hides an effect run's.
  @TaskLocal static var explicit: Cause??

  // Once the process has used a cause (`actormvvm_cause_is_ever_used`, a
  // C flag beside the runtime's other atomics), `send` looks the task-local up;
  // until then it skips it.

  /// The cause of the work the current task does: the one set by
  /// ``Cause/with(_:_:)``, else the one the effect run this task belongs to was started
  /// under, else nil.
  public static var current: Cause? {
    explicit ?? EffectScope.ofCurrentTask()?.cause
  }

  /// ``current``, looked up only once the process has used causes.
  @inlinable
  static var currentIfUsed: Cause? {
    actormvvm_cause_is_ever_used() ? lookUpCurrent() : nil
  }

  @usableFromInline
  static func lookUpCurrent() -> Cause? { current }

  /// Runs `body` with `cause` current (nil: none), once causes are used;
  /// before that, just runs it. For the runtime's own bookkeeping.
  @usableFromInline
  static func within(_ cause: Cause?, _ body: () -> Void) {
    guard actormvvm_cause_is_ever_used() else { return body() }
    $explicit.withValue(cause) { body() }
  }

  /// Runs `body` with `cause` current (nil: none, hiding an outer one), on
  /// the caller's actor.
  public static func with<R, E: Error>(
    _ cause: Cause?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> R
  ) async throws(E) -> R {
    if cause != nil { actormvvm_cause_mark_used() }
    let result: Result<R, E> = await $explicit.withValue(.some(cause)) {
      do throws(E) { return .success(try await body()) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Runs the synchronous `body` with `cause` current (nil: none).
  public static func with<R, E: Error>(_ cause: Cause?, _ body: () throws(E) -> R) throws(E) -> R {
    if cause != nil { actormvvm_cause_mark_used() }
    let result: Result<R, E> = $explicit.withValue(.some(cause)) {
      do throws(E) { return .success(try body()) } catch { return .failure(error) }
    }
    return try result.get()
  }
}
