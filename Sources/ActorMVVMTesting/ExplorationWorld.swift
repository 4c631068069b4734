import ActorMVVM
import ActorMVVMJobCount
import ActorMVVMSupport

/// The controllable world one execution of an ``Exploration`` runs in: the
/// stubbed calls waiting for an answer and the clock timers sleep on. A
/// fresh world is made for every execution; build the subject's
/// dependencies from it (``call(_:answers:whenCancelled:)``, ``clock``).
///
/// `Sendable`; its calls may be made from any task.
public final class ExplorationWorld: Sendable {
  /// One call waiting for the explorer.
  struct Pending: Sendable {
    let id: UInt64
    /// `name(argument)`: what identifies the call in a trace and in a
    /// state's key.
    let label: String
    /// How many answers the explorer can pick from.
    let answerCount: Int
    /// The calling run's progress when it made the call (``RunProgress``).
    let progress: String?
    let resume: @Sendable (Int) -> Void
    /// Resumes the caller as if it had been cancelled.
    let cancel: @Sendable () -> Void
  }

  private let pending = Locked<(next: UInt64, calls: [Pending], closed: Bool)>((0, [], false))

  /// The clock the subject's timers must sleep on: the explorer moves it
  /// to the next deadline as one of its events.
  public let clock: TestClock

  /// How far each effect run has gone in this world (``RunProgress``).
  let progress: RunProgress

  init() {
    let progress = RunProgress()
    self.progress = progress
    clock = TestClock(tagSleeper: { progress.step() })
  }

  /// A dependency call the explorer answers. Each call waits, pending,
  /// until the explorer picks one of `answers(argument)` for it — or never
  /// does (the call is left pending). A cancelled caller is resumed at
  /// once with `whenCancelled`, and the call stops being pending.
  ///
  /// ```swift
  /// let geocode = world.call("geocode", answers: { (city: String) in
  ///   [.success([Location(name: city, latitude: 1, longitude: 2)]), .failure(.failedRequest("500"))]
  /// }, whenCancelled: WeatherError.failedRequest("cancelled"))
  /// // in the stub use case: try await geocode(city)
  /// ```
  public func call<Argument: Sendable, Value: Sendable, Failure: Error>(
    _ name: String, answers: @escaping @Sendable (Argument) -> [Result<Value, Failure>],
    whenCancelled: Failure
  ) -> ExploredCall<Argument, Value, Failure> {
    covered.withLock { _ = $0.calls.insert(name) }
    return ExploredCall(name: name, world: self, answers: answers, whenCancelled: whenCancelled)
  }

  /// What this execution reached, for a coverage report.
  let covered = Locked(CoverageTally.Covered())

  /// Notes that a call named `name` ended with `outcome` — unless the
  /// execution has ended (calls it cancels are no outcome).
  func note(_ name: String, _ outcome: ExplorationCoverage.CallOutcome) {
    covered.withLock { covered in
      if !covered.closed { covered.callOutcomes.insert("\(name) \(outcome)") }
    }
  }

  private let memory = Locked<[String: any Sendable]>([:])

  /// Keeps `value` under `key` for the invariants to read: what a stub
  /// that is not explored did (the records a repository saved).
  public func remember(_ value: some Sendable, as key: String) {
    memory.withLock { $0[key] = value }
  }

  private let endings = Locked<[@Sendable () async -> Void]>([])

  /// Runs `body` once the execution has ended — after its invariants were
  /// checked and its feature finished, before the next execution begins:
  /// how the subject's dependencies that outlive the feature (a coordinator
  /// the harness drives, a session it opened) are ended, so an execution
  /// leaves nothing running (a test bubble fails naming what is left).
  /// Endings run one at a time, in the order they were registered.
  public func atEnd(_ body: @escaping @Sendable () async -> Void) {
    endings.withLock { $0.append(body) }
  }

  /// Runs the endings registered with ``atEnd(_:)``, once.
  func runEndings() async {
    for ending in endings.withLock({ endings in
      defer { endings = [] }
      return endings
    }) {
      await ending()
    }
  }

  /// Everything remembered, as text: how a broken invariant's state shows it.
  var rememberedDescription: String { describeRemembered { String(reflecting: $0) } }

  /// Everything remembered, as text equal for equal values: part of a state's key.
  var rememberedKey: String { describeRemembered(Reflection.canonicalDescription) }

  private func describeRemembered(_ describe: (Any) -> String) -> String {
    memory.withLock { memory in
      memory.keys.sorted().map { "\($0)=\(describe(memory[$0]!))" }.joined(separator: ",")
    }
  }

  /// The value last remembered under `key`, if it is a `T`.
  public func remembered<T>(_ key: String, as type: T.Type = T.self) -> T? {
    memory.withLock { $0[key] as? T }
  }

  /// The calls pending now, by label. (The order they were made in is
  /// the threads': two runs started by one input call in either order.
  /// Calls with one label are interchangeable: a label says what its
  /// caller does with the answer.)
  var calls: [Pending] { pending.withLock { $0.calls }.sorted { $0.label < $1.label } }

  /// Registers a call; returns its id, or nil once the world is closed
  /// (the caller then ends as if cancelled).
  func register(
    label: String, answerCount: Int, resume: @escaping @Sendable (Int) -> Void,
    cancel: @escaping @Sendable () -> Void
  ) -> UInt64? {
    pending.withLock { state in
      guard !state.closed else { return nil }
      state.next += 1
      state.calls.append(
        Pending(
          id: state.next, label: label, answerCount: answerCount, progress: progress.step(), resume: resume,
          cancel: cancel))
      return state.next
    }
  }

  /// Ends the execution's world: every pending call, and every call made
  /// from now on, ends as if its caller were cancelled — so work the
  /// subject started outside its effects (a `Task {}` awaiting a call)
  /// cannot keep it from finishing.
  func close() {
    let calls = pending.withLock { state in
      state.closed = true
      defer { state.calls = [] }
      return state.calls
    }
    for call in calls { call.cancel() }
  }

  /// Removes the call `id` if it is still pending; true if it was.
  func take(_ id: UInt64) -> Pending? {
    pending.withLock { state in
      guard let index = state.calls.firstIndex(where: { $0.id == id }) else { return nil }
      return state.calls.remove(at: index)
    }
  }
}

/// A stubbed dependency call: see ``ExplorationWorld/call(_:answers:whenCancelled:)``.
public struct ExploredCall<Argument: Sendable, Value: Sendable, Failure: Error>: Sendable {
  let name: String
  let world: ExplorationWorld
  let answers: @Sendable (Argument) -> [Result<Value, Failure>]
  let whenCancelled: Failure

  /// Waits until the explorer answers this call, then returns or throws
  /// the answer it picked; throws `whenCancelled` at once if the calling
  /// task is (or gets) cancelled.
  public func callAsFunction(_ argument: Argument) async throws(Failure) -> Value {
    let choices = answers(argument)
    let label = "\(name)(\(Secrets.describe(argument)))"
    let call = CallState<Result<Value, Failure>>()
    let (world, cancelled) = (self.world, Result<Value, Failure>.failure(whenCancelled))
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        call.wait(continuation) {
          world.register(
            label: label, answerCount: choices.count,
            resume: {
              if case .failure = choices[$0] { world.note(name, .failed) } else { world.note(name, .answered) }
              call.resume(choices[$0])
            },
            cancel: { call.resume(cancelled) })
        } orResume: {
          cancelled
        }
      }
    } onCancel: {
      if let id = call.cancel(), world.take(id) != nil {
        world.note(name, .cancelled)
        call.resume(cancelled)
      }
    }
    return try result.get()
  }
}

/// One stubbed call's continuation, resumed exactly once: by the explorer's
/// answer or by the caller's cancellation, whichever comes first.
final class CallState<Result: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Result, Never>?
    var id: UInt64?
    var cancelled = false
    var done = false
  }
  private let state = Locked(State())

  /// Stores `continuation` and registers the call (`register` returns its
  /// id) — or, if the caller was cancelled first or the world is closed,
  /// resumes it with `cancelled()`.
  func wait(
    _ continuation: CheckedContinuation<Result, Never>, register: () -> UInt64?, orResume cancelled: () -> Result
  ) {
    let resumeNow = state.withLock { state in
      if !state.cancelled, let id = register() {
        state.continuation = continuation
        state.id = id
        return false
      }
      state.done = true
      return true
    }
    if resumeNow { continuation.resume(returning: cancelled()) }
  }

  /// Marks the call cancelled; the id to withdraw, if it is registered and not answered.
  func cancel() -> UInt64? {
    state.withLock { state in
      state.cancelled = true
      return state.done ? nil : state.id
    }
  }

  /// Resumes the caller with `result`, unless it was resumed already.
  func resume(_ result: Result) {
    let continuation = state.withLock { state -> CheckedContinuation<Result, Never>? in
      guard !state.done else { return nil }
      state.done = true
      defer { state.continuation = nil }
      return state.continuation
    }
    continuation?.resume(returning: result)
  }
}

/// How far each task has gone: the sleeps on the world's clock and the
/// stubbed calls each has begun. A run's own loop (a poll that ticks three
/// times, then gives up) keeps its counter where the machine's state shows
/// nothing of it, so two points of the loop are never one state of the
/// exploration.
///
/// Tasks are told apart exactly, on whatever thread their code runs. A task
/// the library started in the bubble (an effect run, a drain turn) is known
/// by its ledger entry (``TaskScope/currentEntry``), a task-local: its
/// immediate first slice runs inside its starter's job, and a
/// continuation resumed before it had suspended (a `Task.yield()` whose job
/// ran at once on the other core) lets it go on there, so the job a thread
/// runs does not name it. Any other task the bubble's executor runs (a
/// structured child of a run) is known by the runtime's id of the task
/// whose job it is running (ids are never reused). A `Task {}` of the code
/// under test prefers no executor and is not counted.
final class RunProgress: Sendable {
  private enum Runner: Hashable {
    case started(entry: UInt64)
    case running(id: UInt64)
  }
  private let steps = Locked<[Runner: Int]>([:])

  /// Counts one more step of the current task and returns `@count`; nil in
  /// a task neither started by the library in the bubble nor running a job
  /// of the bubble's executor (one on the main actor). The count alone goes
  /// in a state's key: which run it is shows in the call or timer it tags,
  /// and entries and ids differ between executions.
  func step() -> String? {
    let runner: Runner
    if let entry = TaskScope.currentEntry {
      runner = .started(entry: entry)
    } else if let id = ScopeExecutor.currentTaskID {
      runner = .running(id: id)
    } else {
      return nil
    }
    let count = steps.withLock { steps -> Int in
      steps[runner, default: 0] += 1
      return steps[runner]!
    }
    return "@\(count)"
  }
}
