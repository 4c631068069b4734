import ActorMVVM
import ActorMVVMSupport
import Testing

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
/// nothing in its test bubble can run (the job count every virtual-time tool
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
/// (compared with `==`, the machine's own equality), the outputs so far
/// (by description, sets and dictionaries in any order), the calls pending
/// (by name and argument), the timers set, what stubs remembered, and as
/// much of the past as the invariants read (``History``: the inputs sent,
/// by default) — are one: only the first is explored further. (So a
/// stubbed call's name and argument must say what its caller will do with
/// the answer, as a request/response dependency's do.) The report counts
/// executions and distinct states.
///
/// **Deterministic.** The events after each step are listed in one order
/// (inputs, then pending calls by label, then time) — never in the order
/// threads happened to make the calls — and each step waits for exact
/// idle, so an exploration explores the same paths and reports the same
/// counts on every run, under any load.
///
/// **Bounds.** `maxDepth` events per path; `maxExecutions` in all (a
/// report that hits it says so: the exploration was not exhaustive). Past
/// them, ``search(_:seed:runs:fileID:filePath:line:column:)`` runs seeded random or PCT schedules and
/// shrinks what it finds; every failure carries a replay token
/// (``replay(token:fileID:filePath:line:column:)``).
///
/// **Rules.** ``invariant(_:_:)`` after every step, ``whenSettled(_:_:)``
/// once nothing is pending, ``eventually(_:_:)`` at the end of every path
/// and round every cycle of states. ``coverage(states:of:inputs:)`` adds a
/// report of the transitions and effect outcomes reached.
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
    /// The calls waiting for an answer (`geocode("Seoul")`), sorted (the
    /// order they were made in is the threads', so it is not the explorer's
    /// to report).
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
    enum Kind { case always, whenSettled, eventually }
    let name: String
    /// `.always`: after every step. `.whenSettled`: once no call waits and
    /// no timer is set. `.eventually`: must hold by the time nothing more
    /// can happen, and at least once on every cycle.
    let kind: Kind
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
  /// What ``coverage(states:of:inputs:)`` asked for, if it was.
  var coverageSpec: CoverageSpec?
  /// Whether any rule is an ``eventually(_:_:)`` one.
  var hasEventually = false

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
    copy.invariants.append(Invariant(name: name, kind: .always, holds: holds))
    return copy
  }

  /// Adds a rule checked after a step that leaves nothing pending (no call
  /// waiting, no timer set): "once nothing is in flight, …".
  public func whenSettled(_ name: String, _ holds: @escaping @Sendable (Observation) -> Bool) -> Self {
    var copy = self
    copy.invariants.append(Invariant(name: name, kind: .whenSettled, holds: holds))
    return copy
  }

  /// Adds a liveness rule: on every order, `holds` comes true and stays
  /// so — a spinner stops, a request is answered. It is broken by a path
  /// that ends (nothing more can happen) with it false, and by a *cycle*:
  /// a state reached again with the rule false all the way round (a
  /// livelock: the order can go on forever without meeting it). A path cut
  /// by `maxDepth` breaks nothing. Checked on the states explored; the
  /// report prints the path to the cycle and the cycle.
  public func eventually(_ name: String, _ holds: @escaping @Sendable (Observation) -> Bool) -> Self {
    var copy = self
    copy.invariants.append(Invariant(name: name, kind: .eventually, holds: holds))
    copy.hasEventually = true
    return copy
  }

  // MARK: Exploring

  /// Explores every order within the bounds; returns the counts and the
  /// first (shortest) order that broke an invariant, if any. Once every
  /// order has run, the ``eventually(_:_:)`` rules are checked on the
  /// graph of the states reached: a cycle that never meets one is a
  /// livelock.
  ///
  /// Cancellation: the report says it was not exhaustive and counts the
  /// executions that ran to the end; the one the cancellation interrupted
  /// is neither counted nor judged (its state was read before things
  /// settled), so a cancelled exploration never reports a failure.
  ///
  /// Runs in the caller's test bubble, or in one of its own when called
  /// outside one (a wait that fails reports at the caller's location).
  public func explore(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> ExplorationReport<Machine> {
    await inTestBubble(sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column)) {
      await exploreEveryOrder()
    }
  }

  private func exploreEveryOrder() async -> ExplorationReport<Machine> {
    var queue: [(path: [Step], from: Int?)] = [([], nil)]
    var head = 0
    var graph = StateGraph()
    var executions = 0
    var deepest = 0
    var exhaustive = true
    var coverage = coverageSpec.map(CoverageTally.init)
    func report(_ failure: ExplorationFailure<Machine.Input>?) -> ExplorationReport<Machine> {
      ExplorationReport(
        executions: executions, distinctStates: graph.count, deepest: deepest,
        exhaustive: exhaustive && failure == nil, failure: failure,
        coverage: coverage.flatMap { tally in coverageSpec.map { tally.report($0) } })
    }
    while head < queue.count {
      guard executions < maxExecutions, !Task.isCancelled else {
        exhaustive = false
        break
      }
      let (path, from) = queue[head]
      head += 1
      let run = await execute(path, coverage: &coverage)
      // Cancelled while it ran: its state was read before things settled,
      // so it is neither counted nor judged.
      if run.interrupted {
        exhaustive = false
        break
      }
      executions += 1
      deepest = max(deepest, path.count)
      if let broken = run.broken {
        return report(await failure(broken.name, broken.state, path))
      }
      let (node, isNew) = graph.insert(run.identity, path: path, unmet: run.unmet, parent: from)
      if let from, let step = path.last { graph.connect(from, to: node, by: step) }
      guard isNew else { continue }
      if run.next.isEmpty, let rule = run.unmet.first {
        return report(await failure(rule, nil, path, ending: .pathEnds))
      }
      guard path.count < maxDepth else {
        if !run.unmet.isEmpty, let loop = graph.repeatedToDepth(endingAt: node) {
          return report(await failure(loop.rule, nil, loop.steps, ending: .repeatsToDepth(from: loop.start)))
        }
        continue
      }
      for next in run.next { queue.append((path + [next], node)) }
    }
    if let (rule, steps, cycleStart) = graph.livelock() {
      return report(await failure(rule, nil, steps, ending: .cycle(from: cycleStart)))
    }
    return report(nil)
  }

  /// Replays `steps` (a failure's, kept as a regression test) on a fresh
  /// subject: the state and outputs after them, and the first invariant
  /// broken on the way, if any.
  /// In a test bubble as ``explore(fileID:filePath:line:column:)`` is.
  public func replay(
    _ steps: [ExplorationStep<Machine.Input>],
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> ExplorationOutcome<Machine> {
    await inTestBubble(sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column)) {
      await replaySteps(steps)
    }
  }

  private func replaySteps(_ steps: [ExplorationStep<Machine.Input>]) async -> ExplorationOutcome<Machine> {
    let execution = await Execution(self)
    var broken: String?
    for step in steps where broken == nil {
      guard await execution.perform(step) else {
        broken = "the step \(step) could not happen (nothing matches it)"
        break
      }
      broken = execution.brokenInvariant()
    }
    return await execution.end(brokenInvariant: broken)
  }

  // MARK: One execution

  /// One event of a path.
  typealias Step = ExplorationStep<Machine.Input>

  struct Run {
    let identity: StateIdentity
    let next: [Step]
    let broken: (name: String, state: String)?
    /// The ``eventually(_:_:)`` rules that do not hold at its end.
    let unmet: [String]
    /// A wait for idle in it ended without idle (the exploration was cancelled).
    let interrupted: Bool
  }

  private func execute(_ path: [Step], coverage: inout CoverageTally?) async -> Run {
    let execution = await Execution(self)
    for step in path.dropLast() { _ = await execution.perform(step) }
    var broken: (name: String, state: String)?
    if let last = path.last {
      _ = await execution.perform(last)
      broken = execution.violation()
    }
    let interrupted = execution.interrupted || Task.isCancelled
    let run = Run(
      identity: execution.identity, next: execution.nextSteps(), broken: interrupted ? nil : broken,
      unmet: execution.unmetEventually(), interrupted: interrupted)
    await execution.finish()
    if !interrupted { coverage?.add(execution.covered) }
    return run
  }

  /// How a liveness failure ends.
  enum Ending {
    case pathEnds
    case cycle(from: Int)
    /// Back to a state as the machine, the calls and the timers show it,
    /// with a run's own progress different, again and again until the
    /// depth bound (``maxDepth``).
    case repeatsToDepth(from: Int)
  }

  /// The failure of the rule `name` on `path`: its timeline and token.
  func failure(
    _ name: String, _ state: String?, _ path: [Step], ending: Ending? = nil
  ) async -> ExplorationFailure<Machine.Input> {
    let (timeline, token, last) = await narrate(path)
    var lines = timeline
    var cycleStart: Int?
    switch ending {
    case nil: break
    case .pathEnds:
      lines.append("✘ \(brokenInvariantLine(name, state ?? last)) and nothing more can happen")
    case .cycle(let start):
      cycleStart = start
      lines.append(
        "↻ step \(path.count) returns to \(start == 0 ? "the initial state" : "the state after step \(start)"): "
          + (start + 1 == path.count ? "step \(path.count)" : "steps \(start + 1)…\(path.count)")
          + " can repeat forever")
      lines.append("✘ \(brokenInvariantLine(name, state ?? last)) anywhere on the cycle")
    case .repeatsToDepth(let start):
      cycleStart = start
      lines.append(
        "↻ step \(path.count) returns to \(start == 0 ? "the initial state" : "the state after step \(start)")"
          + " as far as the machine, its calls and its timers show (a run has gone further in its own loop): "
          + (start + 1 == path.count ? "step \(path.count)" : "steps \(start + 1)…\(path.count)")
          + " went on repeating up to the depth bound (\(maxDepth) events)")
      lines.append("✘ \(brokenInvariantLine(name, state ?? last)) anywhere on the loop")
    }
    return ExplorationFailure(
      invariantName: name, stateDescription: state ?? last, steps: path, timeline: lines.joined(separator: "\n"),
      token: token, cycleStart: cycleStart)
  }

  /// The failing path again, step by step: each event and the fields it
  /// changed (then the invariant it broke, if one did); its replay token;
  /// and the state it ends in.
  private func narrate(_ path: [Step]) async -> (lines: [String], token: String, state: String) {
    let execution = await Execution(self)
    var lines: [String] = []
    var choices: [Int] = []
    var before = execution.state
    var outputCount = 0
    for (index, step) in path.enumerated() {
      choices.append(execution.choice(of: step) ?? -1)
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
    let state = execution.stateDescription
    await execution.finish()
    return (lines, ExplorationToken.encode(choices), state)
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
      feature = Feature(
        machine, initialState: initial, counters: LifetimeCounters(),
        trace: Self.coverageTrace(exploration.coverageSpec, world: world))
      state = initial
      let outputs = feature.outputValues
      let collected = self.collected
      listener = TaskScope.start(named: "Exploration output listener") {
        for await output in outputs { collected.withLock { $0.append(output) } }
      }
      await Self.observeCoverage(exploration.coverageSpec, feature: feature, initial: initial, world: world)
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
        guard let call = world.calls.first(where: { $0.label == label }), answer < call.answerCount,
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
      let observation = self.observation
      let settled = self.settled
      for invariant in exploration.invariants
      where invariant.kind == .always || (invariant.kind == .whenSettled && settled) {
        if !invariant.holds(observation) { return (invariant.name, stateDescription) }
      }
      return nil
    }

    /// The state as a failure shows it (secrets masked), with what the
    /// world's stubs remembered, if anything.
    var stateDescription: String {
      let remembered = world.rememberedDescription
      return Secrets.describe(state) + (remembered.isEmpty ? "" : " (remembered: \(remembered))")
    }

    /// Which of ``nextSteps()`` `step` is (the number a replay token
    /// stores), if it is one of them.
    func choice(of step: Step) -> Int? {
      let key = step.key
      return nextSteps().firstIndex { $0.key == key }
    }

    var observation: Observation {
      Observation(
        state: state, outputs: outputs, inputs: sent, inputsBeforeOutput: stamps,
        pendingCalls: world.calls.map(\.label), steps: performed, world: world)
    }

    /// The ``eventually(_:_:)`` rules that do not hold now, by name.
    func unmetEventually() -> [String] {
      guard exploration.hasEventually else { return [] }
      let observation = self.observation
      return exploration.invariants.filter { $0.kind == .eventually && !$0.holds(observation) }.map(\.name)
    }

    /// ``violation()`` as the one line `replay` and the timeline print.
    func brokenInvariant() -> String? { violation().map { brokenInvariantLine($0.name, $0.state) } }

    /// Everything that identifies where this execution is, for deduplication.
    var identity: StateIdentity {
      // Each pending call and timer with its run's progress (``RunProgress``).
      let calls = world.calls.map { $0.label + ($0.progress ?? "") }.joined(separator: ",")
      let now = world.clock.now
      let timers = world.clock.sleeperTags.map { "\(now.duration(to: $0.deadline))\($0.tag ?? "")" }
        .joined(separator: ",")
      // The past, as much of it as the invariants read: with `.inputs`,
      // the inputs sent and how many came before each output
      // (``Observation/inputsBeforeOutput``). (A script's inputs go in a
      // fixed order: their count says which were sent.) Inputs are the
      // plan's own values, copied: `String(reflecting:)` shows each the
      // same way in every execution (a copied set shares its storage).
      let inputs: String
      switch (exploration.history, exploration.inputs) {
      case (.none, _): inputs = "\(sent.count)"
      case (.inputs, .script): inputs = "\(sent.count) \(stamps)"
      case (.inputs, .alphabet): inputs = "\(Reflection.canonicalDescription(sent)) \(stamps)"
      case (.events, _): inputs = performed.map(\.history).joined(separator: ";")
      }
      let untaggedCalls = world.calls.map(\.label).joined(separator: ",")
      let untaggedTimers = world.clock.sleeperTags.map { "\(now.duration(to: $0.deadline))" }.joined(separator: ",")
      return StateIdentity(
        rest: [calls, timers, inputs, world.rememberedKey].joined(separator: "|"),
        untaggedRest: [untaggedCalls, untaggedTimers, inputs, world.rememberedKey].joined(separator: "|"),
        state: state, outputs: outputs)
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
        for answer in 0..<call.answerCount { steps.append(.answer(call.label, answer)) }
      }
      if world.clock.nextDeadline != nil { steps.append(.advanceTime) }
      return steps
    }

    /// Where a replay ended, once the execution is finished.
    func end(brokenInvariant: String?) async -> ExplorationOutcome<Machine> {
      let outcome = ExplorationOutcome<Machine>(
        state: state, outputs: outputs, brokenInvariant: brokenInvariant, unmetEventually: unmetEventually())
      await finish()
      return outcome
    }

    func finish() async {
      world.covered.withLock { $0.closed = true }
      world.close()
      await feature.finish()
      await listener.value
      await world.runEndings()
    }
  }
}

/// One event of an explored order, as a failure prints it and ``Exploration/replay(_:fileID:filePath:line:column:)`` takes it.
public enum ExplorationStep<Input: Sendable>: Sendable, CustomStringConvertible {
  /// What tells two steps apart, secrets included: how a step is matched
  /// to the ones that can happen.
  var key: String {
    switch self {
    case .send(let input): "send " + Reflection.canonicalDescription(input)
    case .answer(let label, let answer): "answer \(label) #\(answer)"
    case .advanceTime: "advance"
    }
  }

  /// The step in a state's history (``Exploration/History/events``):
  /// secrets included, and fast — an input is one of the plan's own values,
  /// which `String(reflecting:)` shows the same way in every execution.
  var history: String {
    switch self {
    case .send(let input): "send " + String(reflecting: input)
    case .answer(let label, let answer): "answer \(label) #\(answer)"
    case .advanceTime: "advance"
    }
  }

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

/// What an exploration or a search found.
public struct ExplorationReport<Machine: StateMachine>: Sendable, CustomStringConvertible {
  /// Paths executed (each a fresh subject, replayed from the start).
  public let executions: Int
  /// Distinct states reached (see ``Exploration``'s deduplication).
  public let distinctStates: Int
  /// The longest path executed (the failing one included).
  public let deepest: Int
  /// Whether every order within the depth bound was explored (false when
  /// `maxExecutions` stopped it, a cancellation or a failure did, and for
  /// every ``Exploration/search(_:seed:runs:fileID:filePath:line:column:)``).
  public let exhaustive: Bool
  /// The shortest order that broke an invariant, if one did (for a
  /// search: shrunk until no single event can be removed).
  public let failure: ExplorationFailure<Machine.Input>?
  /// Which transitions and effect outcomes the executions reached, if the
  /// exploration was asked (``Exploration/coverage(states:of:inputs:)``).
  public let coverage: ExplorationCoverage?
  /// Whether a ``Exploration/search(_:seed:runs:fileID:filePath:line:column:)`` made it: its failure
  /// is shrunk, not a shortest one.
  var searched = false

  public var description: String {
    let counts = "\(executions) executions, \(distinctStates) distinct states, paths up to \(deepest) events"
    let coverageText = coverage.map { "\n\($0)" } ?? ""
    guard let failure else {
      return
        (exhaustive
        ? "explored \(counts): every invariant held"
        : "stopped after \(counts) (maxExecutions, a search's runs, or cancelled): every invariant held so far, "
          + "not exhaustive") + coverageText
    }
    return
      "after \(counts), \(searched ? "an order (shrunk)" : "the shortest order") that breaks an invariant:\n\(failure.timeline)\nreplay: \(failure.token)"
      + coverageText
  }
}

/// An order that breaks an invariant: its events (replay them with
/// ``Exploration/replay(_:fileID:filePath:line:column:)``, or its ``token`` with
/// ``Exploration/replay(token:fileID:filePath:line:column:)``, in a regression test) and a readable
/// timeline.
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
  /// One line that replays these steps exactly
  /// (``Exploration/replay(token:fileID:filePath:line:column:)``): which of the events that could
  /// happen each step took. Secrets are not in it.
  public let token: String
  /// For an ``Exploration/eventually(_:_:)`` rule broken by a cycle: how
  /// many of ``steps`` lead to it; the rest is the cycle, which ends in
  /// the state it started from. Nil for any other failure.
  public let cycleStart: Int?

  /// ``invariantName`` and ``stateDescription`` as the timeline's last
  /// line shows them: `"name" does not hold: State(…)`.
  public var invariant: String { brokenInvariantLine(invariantName, stateDescription) }
}

/// How a broken invariant is printed: `"name" does not hold: State(…)`.
func brokenInvariantLine(_ name: String, _ state: String) -> String {
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
  /// The ``Exploration/eventually(_:_:)`` rules that do not hold at the end.
  public let unmetEventually: [String]
}
