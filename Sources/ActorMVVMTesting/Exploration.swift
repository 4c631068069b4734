import ActorMVVM
import ActorMVVMSupport

/// Explores every order in which a subject's events can happen — the
/// inputs a user sends, the answers (or failures) of the calls it makes,
/// the timers it sets — and checks invariants after every step. Where a
/// ``FeatureTimeline`` or a `TestStore` tests the one order a test wrote,
/// an exploration says "no order of these events, within these bounds,
/// breaks this rule", or prints the shortest order that does.
///
/// ```swift
/// let report = await Exploration<Finder>(inputs: .script([.queryChanged("a"), .queryChanged("ab")])) { world in
///   let search = world.call(
///     "search", answers: { (query: String) in [.success([query.uppercased()]), .failure(SearchError.offline)] },
///     whenCancelled: SearchError.cancelled)
///   return (Finder(search: search), .init())
/// }
/// .invariant("results are for the query shown") { $0.state.results.isEmpty || $0.state.resultsQuery == $0.state.query }
/// .explore()
/// #expect(report.failure == nil, "\(report)")
/// ```
///
/// (The article *Exploring every order* walks through this example.)
///
/// **How.** Each *execution* builds the subject afresh in a new
/// ``ExplorationWorld`` and replays a path of events on the real runtime
/// (a real `Feature`, real effect tasks): after each event it waits until
/// nothing in the process can run (the job count every virtual-time tool
/// here uses), so every effect has either ended or is waiting on a stubbed
/// call or on the world's clock; then it checks the invariants and lists
/// what can happen next:
/// - the next input of a ``InputPlan/script(_:)``, or any input of an
///   ``InputPlan/alphabet(_:count:)`` while fewer than `count` were sent;
/// - for each pending call, each of its answers (a call never answered
///   is the order in which it is left pending);
/// - the world's clock moving to its next deadline, if a timer is set.
///
/// Cancellations are whatever the subject does with those events (a
/// superseding input cancels a run, whose pending call then ends).
///
/// **Breadth first, without revisiting.** Paths are explored shortest
/// first, so the first order that breaks an invariant is a shortest one.
/// Two paths that reach the same *state* — the subject's observed value
/// (compared by its description), the outputs so far, the calls pending
/// (by name and argument), the timers set, what stubs remembered, and as
/// much of the past as the invariants read (``History``: the inputs sent,
/// by default) — are one: only the first is explored further. (So a
/// stubbed call's name and argument must say what its caller will do with
/// the answer, as a request/response dependency's do.) The report counts
/// executions and distinct states.
///
/// **Deterministic.** The events after each step are listed in one order
/// (inputs, then pending calls in the order they were made, then time),
/// and each step waits for exact idle, so an exploration explores the same
/// paths and reports the same counts on every run, under any load.
///
/// **Bounds.** `maxDepth` events per path; `maxExecutions` in all (a
/// report that hits it says so: the exploration was not exhaustive).
///
/// **Concurrency.** `explore()` and `replay(_:)` may be called from any
/// task; executions run one after another, each finished (its world
/// closed, its feature's `finish()` awaited, then the world's
/// ``ExplorationWorld/atEnd(_:)`` endings) before the next begins. The
/// invariants are called on the exploring task, between events. Cancelling
/// the exploring task stops the exploration after the execution under way;
/// the report then says it was not exhaustive. Exact idle is the
/// process's: explorations in tests that run in parallel wait for each
/// other's steps to park, and stay deterministic.
public struct Exploration<Machine: StateMachine>: Sendable {
  /// The inputs a user sends.
  public enum InputPlan: Sendable {
    /// These inputs, in this order, interleaved with everything else.
    case script([Machine.Input])
    /// Any of these inputs, in any order and repeated, up to `count` in all.
    case alphabet([Machine.Input], count: Int)
  }

  /// What an invariant sees after a step.
  public struct Observation: Sendable {
    /// The feature's state.
    public let state: Machine.State
    /// Every output emitted so far, in order.
    public let outputs: [Machine.Output]
    /// Every input sent so far, in order.
    public let inputs: [Machine.Input]
    /// For each output, how many inputs had been sent when it was emitted
    /// (`inputs[..<n]`): which tap an answer's output followed.
    public let inputsBeforeOutput: [Int]
    /// The calls waiting for an answer (`geocode("Seoul")`), in the order they were made.
    public let pendingCalls: [String]
    /// Every event so far, in order: what a reference model of the rules
    /// replays to say what the state should be.
    public let steps: [ExplorationStep<Machine.Input>]
    /// The world of this execution: what its stubs remembered
    /// (``ExplorationWorld/remembered(_:as:)``).
    public let world: ExplorationWorld
  }

  /// A named rule over an ``Observation``.
  struct Invariant: Sendable {
    let name: String
    /// Checked only once nothing is pending: no call waits and no timer is set.
    let onlyWhenSettled: Bool
    let holds: @Sendable (Observation) -> Bool
  }

  /// What of the past the invariants read — and so what must tell two
  /// states apart besides the present (see ``Exploration``'s deduplication).
  public enum History: Sendable {
    /// Nothing: states that look alike now are one, however they were reached.
    case none
    /// The inputs sent (``Observation/inputs``, ``Observation/inputsBeforeOutput``).
    case inputs
    /// Every event (``Observation/steps``): a reference model replaying them.
    case events
  }

  let inputs: InputPlan
  let build: @Sendable (ExplorationWorld) -> (Machine, Machine.State)
  var invariants: [Invariant] = []
  /// What of the past the invariants read; `.inputs` by default.
  public var history: History = .inputs
  /// Events per path, at most.
  public var maxDepth: Int
  /// Executions in all, at most.
  public var maxExecutions: Int

  /// An exploration of the feature `feature` builds (its machine, with
  /// dependencies made from the world, and its initial state), driven by
  /// `inputs`.
  public init(
    inputs: InputPlan, maxDepth: Int = 24, maxExecutions: Int = 20_000,
    feature: @escaping @Sendable (ExplorationWorld) -> (Machine, Machine.State)
  ) {
    self.inputs = inputs
    self.build = feature
    self.maxDepth = maxDepth
    self.maxExecutions = maxExecutions
  }

  /// The same exploration, telling states apart by as much of the past as
  /// `history` says the invariants read.
  public func reading(_ history: History) -> Self {
    var copy = self
    copy.history = history
    return copy
  }

  /// Adds a rule checked after every step.
  public func invariant(_ name: String, _ holds: @escaping @Sendable (Observation) -> Bool) -> Self {
    var copy = self
    copy.invariants.append(Invariant(name: name, onlyWhenSettled: false, holds: holds))
    return copy
  }

  /// Adds a rule checked after a step that leaves nothing pending (no call
  /// waiting, no timer set): "once nothing is in flight, …".
  public func whenSettled(_ name: String, _ holds: @escaping @Sendable (Observation) -> Bool) -> Self {
    var copy = self
    copy.invariants.append(Invariant(name: name, onlyWhenSettled: true, holds: holds))
    return copy
  }

  // MARK: Exploring

  /// Explores every order within the bounds; returns the counts and the
  /// first (shortest) order that broke an invariant, if any.
  ///
  /// Cancellation: the report says it was not exhaustive and counts the
  /// executions that ran to the end; the one the cancellation interrupted
  /// is neither counted nor judged (its state was read before things
  /// settled), so a cancelled exploration never reports a failure.
  public func explore() async -> ExplorationReport<Machine> {
    var queue: [[Step]] = [[]]
    var head = 0
    var seen: Set<String> = []
    var executions = 0
    var deepest = 0
    while head < queue.count {
      guard executions < maxExecutions, !Task.isCancelled else {
        return ExplorationReport(
          executions: executions, distinctStates: seen.count, deepest: deepest, exhaustive: false, failure: nil)
      }
      let path = queue[head]
      head += 1
      let run = await execute(path)
      // Cancelled while it ran: its state was read before things settled,
      // so it is neither counted nor judged.
      if run.interrupted {
        return ExplorationReport(
          executions: executions, distinctStates: seen.count, deepest: deepest, exhaustive: false, failure: nil)
      }
      executions += 1
      deepest = max(deepest, path.count)
      if let broken = run.broken {
        let timeline = await narrate(path)
        return ExplorationReport(
          executions: executions, distinctStates: seen.count, deepest: deepest, exhaustive: false,
          failure: ExplorationFailure(
            invariantName: broken.name, stateDescription: broken.state, steps: path, timeline: timeline))
      }
      guard seen.insert(run.key).inserted else { continue }
      guard path.count < maxDepth else { continue }
      for next in run.next { queue.append(path + [next]) }
    }
    return ExplorationReport(
      executions: executions, distinctStates: seen.count, deepest: deepest, exhaustive: true, failure: nil)
  }

  /// Replays `steps` (a failure's, kept as a regression test) on a fresh
  /// subject: the state and outputs after them, and the first invariant
  /// broken on the way, if any.
  public func replay(_ steps: [ExplorationStep<Machine.Input>]) async -> ExplorationOutcome<Machine> {
    let execution = await Execution(self)
    var broken: String?
    for step in steps where broken == nil {
      guard await execution.perform(step) else {
        broken = "the step \(step) could not happen (nothing matches it)"
        break
      }
      broken = execution.brokenInvariant()
    }
    let outcome = ExplorationOutcome<Machine>(
      state: execution.state, outputs: execution.outputs, brokenInvariant: broken)
    await execution.finish()
    return outcome
  }

  // MARK: One execution

  /// One event of a path.
  typealias Step = ExplorationStep<Machine.Input>

  struct Run {
    let key: String
    let next: [Step]
    let broken: (name: String, state: String)?
    /// A wait for idle in it ended without idle (the exploration was cancelled).
    let interrupted: Bool
  }

  private func execute(_ path: [Step]) async -> Run {
    let execution = await Execution(self)
    for step in path.dropLast() { _ = await execution.perform(step) }
    var broken: (name: String, state: String)?
    if let last = path.last {
      _ = await execution.perform(last)
      broken = execution.violation()
    }
    let interrupted = execution.interrupted || Task.isCancelled
    let run = Run(
      key: execution.key, next: execution.nextSteps(), broken: interrupted ? nil : broken, interrupted: interrupted)
    await execution.finish()
    return run
  }

  /// The failing path again, step by step: each event and the fields it changed.
  private func narrate(_ path: [Step]) async -> String {
    let execution = await Execution(self)
    var lines: [String] = []
    var before = execution.state
    var outputCount = 0
    for (index, step) in path.enumerated() {
      _ = await execution.perform(step)
      let state = execution.state
      var line = "\(index + 1). \(step)"
      let changes = StateDiff.changes(from: before, to: state, describe: Secrets.describe)
      if !changes.isEmpty {
        line +=
          "  →  "
          + changes.map { "\($0.path.isEmpty ? "(value)" : $0.path): \($0.old) → \($0.new)" }
          .joined(separator: ", ")
      }
      let outputs = execution.outputs
      for output in outputs.dropFirst(outputCount) { line += "  ! \(Secrets.describe(output))" }
      outputCount = outputs.count
      lines.append(line)
      before = state
    }
    if let broken = execution.brokenInvariant() { lines.append("✘ \(broken)") }
    await execution.finish()
    return lines.joined(separator: "\n")
  }

  /// A fresh feature in a fresh world, and what it did so far.
  final class Execution {
    let exploration: Exploration
    let world = ExplorationWorld()
    let feature: Feature<Machine>
    let collected = Locked<[Machine.Output]>([])
    let listener: Task<Void, Never>
    private(set) var state: Machine.State
    private(set) var sent: [Machine.Input] = []
    /// ``Observation/inputsBeforeOutput``.
    private(set) var stamps: [Int] = []
    /// The events performed so far.
    private(set) var performed: [ExplorationStep<Machine.Input>] = []
    /// Whether a wait for idle ended without it (cancelled): what was read
    /// after it is not a settled state.
    private(set) var interrupted = false

    init(_ exploration: Exploration) async {
      self.exploration = exploration
      let (machine, initial) = exploration.build(world)
      feature = Feature(machine, initialState: initial, counters: LifetimeCounters())
      state = initial
      let outputs = feature.outputValues
      let collected = self.collected
      listener = TaskScope.start(named: "Exploration output listener") {
        for await output in outputs { collected.withLock { $0.append(output) } }
      }
      await settle()
    }

    var outputs: [Machine.Output] { collected.withLock { $0 } }

    /// Waits until nothing can run, then reads the state and stamps the
    /// outputs the step emitted.
    func settle() async {
      if await !world.clock.settle() { interrupted = true }
      state = await feature.state
      let count = collected.withLock { $0.count }
      while stamps.count < count { stamps.append(sent.count) }
    }

    func perform(_ event: ExplorationStep<Machine.Input>) async -> Bool {
      switch event {
      case .send(let input):
        feature.send(input)
        sent.append(input)
      case .answer(let label, let answer):
        guard let call = world.calls.first(where: { $0.label == label }), answer < call.answers.count,
          let taken = world.take(call.id)
        else { return false }
        taken.resume(answer)
      case .advanceTime:
        guard let next = world.clock.nextDeadline else { return false }
        await world.clock.advance(to: next)
      }
      performed.append(event)
      await settle()
      return true
    }

    var settled: Bool { world.calls.isEmpty && world.clock.nextDeadline == nil }

    /// The first invariant that does not hold now: its name, and the state
    /// it broke on (with what the world's stubs remembered, if anything).
    func violation() -> (name: String, state: String)? {
      let observation = Observation(
        state: state, outputs: outputs, inputs: sent, inputsBeforeOutput: stamps,
        pendingCalls: world.calls.map(\.label), steps: performed, world: world)
      let settled = self.settled
      for invariant in exploration.invariants where !invariant.onlyWhenSettled || settled {
        if !invariant.holds(observation) {
          let remembered = world.rememberedDescription
          return (
            invariant.name,
            Secrets.describe(state) + (remembered.isEmpty ? "" : " (remembered: \(remembered))")
          )
        }
      }
      return nil
    }

    /// ``violation()`` as the one line `replay` and the timeline print.
    func brokenInvariant() -> String? { violation().map { brokenInvariantLine($0.name, $0.state) } }

    /// Everything that identifies where this execution is, for deduplication.
    var key: String {
      let calls = world.calls.map(\.label).joined(separator: ",")
      let timers = world.clock.sleeperDeadlines.map { "\(world.clock.now.duration(to: $0))" }.joined(separator: ",")
      // The past, as much of it as the invariants read: with `.inputs`,
      // the inputs sent and how many came before each output
      // (``Observation/inputsBeforeOutput``). (A script's inputs go in a
      // fixed order: their count says which were sent.)
      let inputs: String
      switch (exploration.history, exploration.inputs) {
      case (.none, _): inputs = "\(sent.count)"
      case (.inputs, .script): inputs = "\(sent.count) \(stamps)"
      case (.inputs, .alphabet): inputs = "\(String(reflecting: sent)) \(stamps)"
      case (.events, _): inputs = performed.map(\.description).joined(separator: ";")
      }
      return [
        String(reflecting: state), String(reflecting: outputs), calls, timers, inputs, world.rememberedDescription,
      ].joined(separator: "|")
    }

    func nextSteps() -> [Step] {
      var steps: [Step] = []
      switch exploration.inputs {
      case .script(let script):
        if sent.count < script.count { steps.append(.send(script[sent.count])) }
      case .alphabet(let letters, let count):
        if sent.count < count { steps += letters.map { .send($0) } }
      }
      var labels: Set<String> = []
      for call in world.calls where labels.insert(call.label).inserted {
        for answer in call.answers.indices { steps.append(.answer(call.label, answer)) }
      }
      if world.clock.nextDeadline != nil { steps.append(.advanceTime) }
      return steps
    }

    func finish() async {
      world.close()
      await feature.finish()
      await listener.value
      await world.runEndings()
    }
  }
}

/// One event of an explored order, as a failure prints it and ``Exploration/replay(_:)`` takes it.
public enum ExplorationStep<Input: Sendable>: Sendable, CustomStringConvertible {
  /// The user sends `input`.
  case send(Input)
  /// The pending call `label` (`geocode("Seoul")`) gets its answer number `answer` (from 0).
  case answer(String, Int)
  /// The world's clock moves to its next deadline.
  case advanceTime

  public var description: String {
    switch self {
    case .send(let input): "send \(Secrets.describe(input))"
    case .answer(let label, let answer): "answer \(label) with #\(answer)"
    case .advanceTime: "advance time to the next deadline"
    }
  }
}

/// What an exploration found.
public struct ExplorationReport<Machine: StateMachine>: Sendable, CustomStringConvertible {
  /// Paths executed (each a fresh subject, replayed from the start).
  public let executions: Int
  /// Distinct states reached (see ``Exploration``'s deduplication).
  public let distinctStates: Int
  /// The longest path executed (the failing one included).
  public let deepest: Int
  /// Whether every order within the depth bound was explored (false when
  /// `maxExecutions` stopped it, or a failure did).
  public let exhaustive: Bool
  /// The shortest order that broke an invariant, if one did.
  public let failure: ExplorationFailure<Machine.Input>?

  public var description: String {
    let counts = "\(executions) executions, \(distinctStates) distinct states, paths up to \(deepest) events"
    guard let failure else {
      return exhaustive
        ? "explored \(counts): every invariant held"
        : "stopped after \(counts) (maxExecutions, or cancelled): every invariant held so far, not exhaustive"
    }
    return "after \(counts), the shortest order that breaks an invariant:\n\(failure.timeline)"
  }
}

/// An order that breaks an invariant: its events (replay them with
/// ``Exploration/replay(_:)`` in a regression test) and a readable timeline.
public struct ExplorationFailure<Input: Sendable>: Sendable {
  /// The name of the invariant broken, as the exploration was given it.
  public let invariantName: String
  /// The state it broke on, as the timeline prints it (secrets masked),
  /// then ` (remembered: …)` when the world's stubs remembered something.
  public let stateDescription: String
  /// The events, in order.
  public let steps: [ExplorationStep<Input>]
  /// Each event with the fields it changed and the outputs it emitted, then the broken invariant.
  public let timeline: String

  /// ``invariantName`` and ``stateDescription`` as the timeline's last
  /// line shows them: `"name" does not hold: State(…)`.
  public var invariant: String { brokenInvariantLine(invariantName, stateDescription) }
}

/// How a broken invariant is printed: `"name" does not hold: State(…)`.
private func brokenInvariantLine(_ name: String, _ state: String) -> String {
  "\"\(name)\" does not hold: \(state)"
}

/// Where a replay ended.
public struct ExplorationOutcome<Machine: StateMachine>: Sendable {
  /// The state after the steps.
  public let state: Machine.State
  /// Every output emitted.
  public let outputs: [Machine.Output]
  /// The first invariant broken on the way, if one was.
  public let brokenInvariant: String?
}
