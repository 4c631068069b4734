import ActorMVVMRuntimeShims

/// The executor the library's own tasks prefer while a test scopes them:
/// what the public-API tier of virtual time's job count stands on.
///
/// A test bubble (ActorMVVMTesting) binds a counting `TaskExecutor` here
/// for the test's task. Every task the library starts — a feature's drain
/// turn, an effect run, a binding, an operator's pump, the
/// coordinator's listeners — reads the binding of the task that starts it
/// and starts with that executor as its preference: its jobs, and the jobs of
/// the default actors it calls, then run on that executor, which counts
/// them. The binding is a task-local, so it follows the library's tasks (each
/// binds it again for the tasks it starts) but not a `Task.detached` of the
/// code under test, and never a task of another test.
///
/// Unbound (an app; a test outside a bubble): one relaxed load of a process
/// flag at each start, and the tasks start as before.
///
/// For libraries built on this one: start your own tasks with
/// ``start(named:_:)`` (or ``task(preferring:named:immediate:_:)`` when
/// ``preferred`` is set) so a test's job count sees them as it sees the
/// library's; a job count binds its executor with ``binding(_:isolation:_:)``.
public enum TaskScope {
  /// The bound executor: an `any TaskExecutor`, held as `Sendable` so that a
  /// scope can also bind a value that is not one (then nothing is preferred).
  public static var bound: (any Sendable)? { boundExecutor }

  /// The binding's storage: set only by ``binding(_:isolation:_:)``.
  @TaskLocal static var boundExecutor: (any Sendable)?

  /// The executor to prefer, looked up only once the process has bound one.
  @inlinable public static var preferred: (any Sendable)? {
    actormvvm_task_scope_is_ever_bound() ? lookUpBound() : nil
  }

  @usableFromInline static func lookUpBound() -> (any Sendable)? { boundExecutor }

  /// The ledger entry of the task running now, if a bound scope's ledger
  /// started it (``task(preferring:named:immediate:_:)``, ``start(named:_:)``
  /// and the library's own starts); nil in any other task, including a
  /// structured child or a `Task {}` of that task's: they inherit its
  /// task-locals, but are not the task the entry names.
  ///
  /// Exact on any thread: the entry is a task-local bound first thing in
  /// the task, so it follows the task through its immediate first slice (run
  /// inside its starter's job), a continuation resumed before the task had
  /// suspended, and a default actor's job that runs it. What a job count
  /// reads from the job a thread runs names that job's task instead. (The
  /// owner is recognised by the hash of its current-task reference, taken
  /// while it is running; only another task alive at once whose reference
  /// hashed the same could be taken for it.)
  public static var currentEntry: UInt64? {
    guard let mark = entryMark else { return nil }
    return withUnsafeCurrentTask { $0?.hashValue } == mark.owner ? mark.entry : nil
  }

  /// ``currentEntry``'s storage: bound by each start that has a ledger entry.
  @TaskLocal static var entryMark: EntryMark?

  /// A ledger entry and the task it names (``currentEntry``).
  struct EntryMark: Sendable {
    let entry: UInt64
    /// The hash of the owning task's `UnsafeCurrentTask`.
    let owner: Int?

    /// The mark of `entry` for the task running now.
    static func current(_ entry: UInt64) -> EntryMark {
      EntryMark(entry: entry, owner: withUnsafeCurrentTask { $0?.hashValue })
    }
  }

  /// Runs `body` with `executor` (an `any TaskExecutor`) bound for the
  /// library's tasks that `body` starts, on the caller's actor.
  public static func binding<R, E: Error>(
    _ executor: any Sendable, isolation: isolated (any Actor)? = #isolation, _ body: () async throws(E) -> R
  ) async throws(E) -> R {
    actormvvm_task_scope_mark_bound()
    let result: Result<R, E> = await $boundExecutor.withValue(executor) {
      do throws(E) { return .success(try await body()) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// A detached task preferring `preferred` (immediate where `Task.immediateDetached`
  /// exists and `immediate` asks for it; through `lane`, if given, instead),
  /// kept in the scope's ledger under `name` until it returns; nil where
  /// `preferred` is not a task executor: the caller starts its task as it
  /// would have.
  @usableFromInline
  static func detached(
    preferring preferred: any Sendable, named name: String, priority: TaskPriority?, immediate: Bool,
    through lane: StartLane? = nil, _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never>? {
    guard let executor = preferred as? any TaskExecutor else { return nil }
    let ledger = preferred as? any TaskScopeLedger
    let entry = ledger?.taskStarted(name)
    // A detached task has no task-locals: the binding goes with it, for the tasks it starts.
    let scoped: @Sendable () async -> Void = {
      guard let entry, let ledger else { return await $boundExecutor.withValue(preferred) { await operation() } }
      ledger.taskRunning(entry)
      await $boundExecutor.withValue(preferred) {
        await $entryMark.withValue(.current(entry)) { await operation() }
      }
      ledger.taskEnded(entry)
    }
    if let lane { return lane.detached(on: executor, priority: priority, scoped) }
    #if !ACTORMVVM_APPLE_BELOW_26
      if immediate, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return Task.immediateDetached(priority: priority, executorPreference: executor, operation: scoped)
      }
    #endif
    return Task.detached(executorPreference: executor, priority: priority, operation: scoped)
  }

  /// An unstructured, nonisolated task preferring `preferred` (immediate
  /// where `Task.immediate` exists and `immediate` asks for it), kept in the
  /// scope's ledger under `name` until it returns; nil where `preferred` is
  /// not a task executor: the caller starts its task as it would have.
  public static func task<Success: Sendable>(
    preferring preferred: any Sendable, named name: String, immediate: Bool,
    _ operation: @escaping @Sendable () async -> Success
  ) -> Task<Success, Never>? {
    guard let executor = preferred as? any TaskExecutor else { return nil }
    let ledger = preferred as? any TaskScopeLedger
    let entry = ledger?.taskStarted(name)
    let tracked: @Sendable () async -> Success = {
      guard let entry, let ledger else { return await operation() }
      ledger.taskRunning(entry)
      let result = await $entryMark.withValue(.current(entry)) { await operation() }
      ledger.taskEnded(entry)
      return result
    }
    #if !ACTORMVVM_APPLE_BELOW_26
      if immediate, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return Task.immediate(executorPreference: executor, operation: tracked)
      }
    #endif
    return Task(executorPreference: executor, operation: tracked)
  }

  /// `Task(operation:)`, preferring the bound executor if there is one (and
  /// kept in its ledger under `name`): how the testing tools, and the
  /// library's targets above the runtime, start their own tasks.
  public static func start<Success: Sendable>(
    named name: @autoclosure () -> String, _ operation: @escaping @Sendable () async -> Success
  ) -> Task<Success, Never> {
    preferred.flatMap { task(preferring: $0, named: name(), immediate: false, operation) }
      ?? Task(operation: operation)
  }
}

extension TaskScope {
  /// A type's name with its module left out (`Probe.Input`), for the ledger.
  @usableFromInline
  static func typeName(_ type: Any.Type) -> String {
    let full = String(reflecting: type)
    // A private type's path has an "(unknown context at $…)." part: keep what follows it.
    if let close = full.lastIndex(of: ")"), full[full.index(after: close)...].first == "." {
      return String(full[full.index(close, offsetBy: 2)...])
    }
    guard let dot = full.firstIndex(of: ".") else { return full }
    return String(full[full.index(after: dot)...])
  }
}

/// What a bound scope keeps of the library's tasks: each, by name, from its
/// start until it returns, so the scope's end can name the ones still
/// running or blocked, and its outside work. (The test bubble's executor
/// keeps one.) Called from any thread; an implementation synchronises itself.
public protocol TaskScopeLedger: Sendable {
  /// A task named `name` started; the returned entry ends it.
  func taskStarted(_ name: String) -> UInt64
  /// The task of `entry` is running its body (called once, first thing in
  /// the task): a scope that reports stalls may learn which task it is.
  func taskRunning(_ entry: UInt64)
  /// The task of `entry` returned.
  func taskEnded(_ entry: UInt64)
  /// Outside work (``withOutsideWork(isolation:_:)``) started in the scope:
  /// it holds the scope's idle open like a job until it ends.
  func outsideWorkBegan()
  /// Outside work started in the scope ended.
  func outsideWorkEnded()
  /// Returns once nothing of the scope can run (or the scope gives up
  /// waiting): what a bounded wait awaits after its deadline
  /// (``IdleWait/afterDeadline(_:then:)``).
  func waitUntilIdle() async
}

extension TaskScopeLedger {
  /// Learns nothing.
  public func taskRunning(_ entry: UInt64) {}
}
