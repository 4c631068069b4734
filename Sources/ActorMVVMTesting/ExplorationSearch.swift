import ActorMVVM
import ActorMVVMSupport

// Past exhaustive: seeded schedules, replay tokens, shrinking, and the
// state graph the liveness rules are checked on.

extension Exploration {
  /// How ``search(_:seed:runs:fileID:filePath:line:column:)`` picks each next event.
  public enum Schedule: Sendable {
    /// Uniformly among the events that can happen.
    case random
    /// Probabilistic concurrency testing: each source of events (the
    /// inputs, each pending call's label, the clock) gets a random
    /// priority, and the highest-priority source that can act acts; at
    /// `changePoints` random steps of a run, the source that acted drops
    /// below every other. An order that needs `changePoints + 1` sources
    /// to take turns in a particular way is found with a probability that
    /// depends on the number of sources and steps, not on the number of
    /// orders.
    case pct(changePoints: Int)
  }

  /// Runs `runs` executions, each along one order picked by `schedule`
  /// from a random stream seeded with `seed`, up to `maxDepth` events or
  /// until nothing more can happen: for a space larger than
  /// `maxExecutions` allows ``explore(fileID:filePath:line:column:)`` to cover. Invariants are checked
  /// after every step; ``eventually(_:_:)`` rules where a run ends and on
  /// any state a run reaches twice.
  ///
  /// A failure is shrunk before it is reported: events are removed while
  /// the same invariant still breaks, until removing any single one makes
  /// it hold or makes the order impossible (a shrunk order is 1-minimal;
  /// a shorter one may still exist). Its ``ExplorationFailure/token``
  /// replays it exactly (``replay(token:fileID:filePath:line:column:)``); the same seed finds the same
  /// failure. The report is never exhaustive; shrinking's executions are
  /// not counted.
  ///
  /// Cancellation: as for ``explore(fileID:filePath:line:column:)``, the run the cancellation
  /// interrupted is neither counted nor judged.
  ///
  /// In a test bubble as ``explore(fileID:filePath:line:column:)`` is.
  public func search(
    _ schedule: Schedule = .pct(changePoints: 2), seed: UInt64, runs: Int,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async -> ExplorationReport<Machine> {
    await inTestBubble(sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column)) {
      await searchOrders(schedule, seed: seed, runs: runs)
    }
  }

  private func searchOrders(_ schedule: Schedule, seed: UInt64, runs: Int) async -> ExplorationReport<Machine> {
    var random = SplitMix64(seed: seed)
    var seen = StateIndex()
    var executions = 0
    var deepest = 0
    var coverage = coverageSpec.map(CoverageTally.init)
    func report(_ failure: ExplorationFailure<Machine.Input>?) -> ExplorationReport<Machine> {
      var report = ExplorationReport<Machine>(
        executions: executions, distinctStates: seen.count, deepest: deepest, exhaustive: false, failure: failure,
        coverage: coverage.flatMap { tally in coverageSpec.map { tally.report($0) } })
      report.searched = true
      return report
    }
    for _ in 0..<runs {
      if Task.isCancelled { break }
      var chooser = Chooser(schedule: schedule, maxDepth: maxDepth, random: &random)
      let execution = await Execution(self)
      var path: [Step] = []
      let first = execution.identity
      var visited: [(node: Int, unmet: [String])] = [(seen.insert(first).node, execution.unmetEventually())]
      var identities = [first]
      var found: (name: String, ending: Ending?)?
      while path.count < maxDepth, found == nil {
        let next = execution.nextSteps()
        guard !next.isEmpty else {
          if let rule = visited.last?.unmet.first { found = (rule, .pathEnds) }
          break
        }
        let step = chooser.pick(next, random: &random)
        _ = await execution.perform(step)
        path.append(step)
        if execution.interrupted || Task.isCancelled { break }
        if let broken = execution.violation() {
          found = (broken.name, nil)
          break
        }
        let identity = execution.identity
        let here = (node: seen.insert(identity).node, unmet: execution.unmetEventually())
        if let start = visited.firstIndex(where: { $0.node == here.node }),
          let rule = here.unmet.first(where: { rule in visited[start...].allSatisfy { $0.unmet.contains(rule) } })
        {
          found = (rule, .cycle(from: start))
        }
        visited.append(here)
        identities.append(identity)
      }
      // At the depth bound still going round a loop the machine shows.
      if found == nil, path.count == maxDepth, visited.last?.unmet.isEmpty == false, !execution.nextSteps().isEmpty,
        let loop = Self.repeatedLoop(zip(identities, visited).map { ($0, $1.unmet) })
      {
        found = (loop.rule, .repeatsToDepth(from: loop.start))
        path = Array(path.prefix(loop.end))
      }
      let interrupted = execution.interrupted || Task.isCancelled
      await execution.finish()
      if interrupted { break }
      coverage?.add(execution.covered)
      executions += 1
      deepest = max(deepest, path.count)
      guard let found else { continue }
      let shrunk = found.ending == nil ? await shrink(path, breaking: found.name) : path
      return report(await failure(found.name, nil, shrunk, ending: found.ending))
    }
    return report(nil)
  }

  /// Removes events from `path` while the invariant `name` still breaks
  /// on it (cut at the step it breaks), until no single event can go.
  func shrink(_ path: [Step], breaking name: String) async -> [Step] {
    var best = path
    var shrinking = true
    while shrinking, !Task.isCancelled {
      shrinking = false
      var index = 0
      while index < best.count, !Task.isCancelled {
        var candidate = best
        candidate.remove(at: index)
        if let broken = await prefixBreaking(name, along: candidate) {
          best = broken
          shrinking = true
        } else {
          index += 1
        }
      }
    }
    return best
  }

  /// The shortest prefix of `path` after which the invariant `name` is
  /// broken, if `path` can happen and breaks it.
  private func prefixBreaking(_ name: String, along path: [Step]) async -> [Step]? {
    let execution = await Execution(self)
    var result: [Step]?
    for (index, step) in path.enumerated() {
      guard execution.choice(of: step) != nil else { break }
      _ = await execution.perform(step)
      if execution.interrupted || Task.isCancelled { break }
      if execution.violation()?.name == name {
        result = Array(path.prefix(index + 1))
        break
      }
    }
    let interrupted = execution.interrupted
    await execution.finish()
    return interrupted ? nil : result
  }

  /// Replays the order a failure's ``ExplorationFailure/token`` names —
  /// the same steps, matched to the events that can happen at each — on a
  /// fresh subject. Throws ``ExplorationTokenError`` for a line that is
  /// not a token; a token whose step cannot happen (the exploration
  /// changed since) says so in ``ExplorationOutcome/brokenInvariant``.
  /// In a test bubble as ``explore(fileID:filePath:line:column:)`` is.
  public func replay(
    token: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async throws(ExplorationTokenError) -> ExplorationOutcome<Machine> {
    let choices = try ExplorationToken.decode(token)
    return await inTestBubble(
      sourceLocation: .caller(fileID: fileID, filePath: filePath, line: line, column: column)
    ) {
      await replayChoices(choices)
    }
  }

  private func replayChoices(_ choices: [Int]) async -> ExplorationOutcome<Machine> {
    let execution = await Execution(self)
    var broken: String?
    for (index, choice) in choices.enumerated() where broken == nil {
      let next = execution.nextSteps()
      guard choice < next.count else {
        broken = "step \(index + 1) of the token could not happen (only \(next.count) events could)"
        break
      }
      _ = await execution.perform(next[choice])
      broken = execution.brokenInvariant()
    }
    return await execution.end(brokenInvariant: broken)
  }

  /// Picks a run's events for a ``Schedule``.
  struct Chooser {
    let schedule: Schedule
    /// PCT: each source's priority (higher acts first), given when first seen.
    var priorities: [String: UInt64] = [:]
    /// PCT: the steps (1-based) after which the acting source drops.
    var changeAt: Set<Int> = []
    var steps = 0
    var lowest: UInt64 = .max / 2

    init(schedule: Schedule, maxDepth: Int, random: inout SplitMix64) {
      self.schedule = schedule
      if case .pct(let changePoints) = schedule, maxDepth > 0 {
        for _ in 0..<max(0, changePoints) { changeAt.insert(1 + random.below(maxDepth)) }
      }
    }

    static func source(of step: Step) -> String {
      switch step {
      case .send: "inputs"
      case .answer(let label, _): "call " + label
      case .advanceTime: "clock"
      }
    }

    mutating func pick(_ next: [Step], random: inout SplitMix64) -> Step {
      steps += 1
      guard case .pct = schedule else { return next[random.below(next.count)] }
      var best: (source: String, priority: UInt64)?
      for step in next {
        let source = Self.source(of: step)
        if priorities[source] == nil { priorities[source] = .max / 2 + random.next() / 2 }
        let priority = priorities[source]!
        if best == nil || priority > best!.priority { best = (source, priority) }
      }
      let source = best!.source
      let candidates = next.filter { Self.source(of: $0) == source }
      if changeAt.contains(steps) {
        lowest -= 1
        priorities[source] = lowest
      }
      return candidates[random.below(candidates.count)]
    }
  }

  /// The states an exploration reached, the events between them, and the
  /// ``eventually(_:_:)`` rules unmet in each: where a livelock is looked for.
  struct StateGraph {
    private var index = StateIndex()
    /// The first (a shortest) path to each state.
    private var paths: [[Step]] = []
    private var unmet: [[String]] = []
    private var edges: [[(step: Step, to: Int)]] = []
    /// Each state's identity and the state it was first reached from.
    private var identities: [StateIdentity] = []
    private var parents: [Int?] = []

    var count: Int { paths.count }

    /// The state with `key`, and whether it is new.
    mutating func insert(
      _ identity: StateIdentity, path: [Step], unmet rules: [String], parent: Int?
    ) -> (Int, isNew: Bool) {
      let (node, isNew) = index.insert(identity)
      guard isNew else { return (node, false) }
      paths.append(path)
      unmet.append(rules)
      edges.append([])
      identities.append(identity)
      parents.append(parent)
      return (paths.count - 1, true)
    }

    /// The first loop (``repeatedLoop(_:)``) on the path to `node`, a state
    /// at the depth bound: the rule unmet round it, the path to the loop's
    /// end, and where the loop starts.
    func repeatedToDepth(endingAt node: Int) -> (rule: String, steps: [Step], start: Int)? {
      var chain = [node]
      while let parent = parents[chain[chain.count - 1]] { chain.append(parent) }
      chain.reverse()
      guard let loop = repeatedLoop(chain.map { (identities[$0], unmet[$0]) }) else { return nil }
      return (loop.rule, paths[chain[loop.end]], loop.start)
    }

    mutating func connect(_ from: Int, to: Int, by step: Step) { edges[from].append((step, to)) }

    /// A cycle of states on which an `eventually` rule never holds: the
    /// rule, the path to the cycle and round it, and where the cycle
    /// starts. States are visited in the order they were found, so the
    /// path to the cycle is a shortest one to its first state.
    func livelock() -> (rule: String, steps: [Step], cycleStart: Int)? {
      var rules: [String] = []
      for names in unmet { for name in names where !rules.contains(name) { rules.append(name) } }
      for rule in rules {
        if let (entry, cycle) = cycle(where: { unmet[$0].contains(rule) }) {
          return (rule, paths[entry] + cycle, paths[entry].count)
        }
      }
      return nil
    }

    /// A cycle among the states `included` admits: its first state and its events.
    private func cycle(where included: (Int) -> Bool) -> (Int, [Step])? {
      var color = [UInt8](repeating: 0, count: count)  // 0 unvisited, 1 on the stack, 2 done
      for root in 0..<count where color[root] == 0 && included(root) {
        // (state, next edge to try, the event that entered it)
        var stack: [(node: Int, edge: Int, entered: Step?)] = [(root, 0, nil)]
        color[root] = 1
        while let top = stack.last {
          let outgoing = edges[top.node]
          guard top.edge < outgoing.count else {
            color[top.node] = 2
            stack.removeLast()
            continue
          }
          stack[stack.count - 1].edge += 1
          let (step, next) = outgoing[top.edge]
          guard included(next) else { continue }
          if color[next] == 1 {
            let start = stack.firstIndex { $0.node == next }!
            return (next, stack[(start + 1)...].compactMap(\.entered) + [step])
          }
          if color[next] == 0 {
            color[next] = 1
            stack.append((next, 0, step))
          }
        }
      }
      return nil
    }
  }
}

extension Exploration {
  /// Where an execution is, for deduplication (see ``Exploration``): the
  /// state and the outputs, and everything else as text.
  struct StateIdentity {
    /// The pending calls and the timers, each with its run's progress
    /// (``RunProgress``), the history read and what stubs remembered.
    let rest: String
    /// `rest` without the runs' progress: the state as the machine, its
    /// calls and its timers show it (``repeatedLoop(_:)``).
    let untaggedRest: String
    let state: Machine.State
    let outputs: [Machine.Output]

    /// Whether `other` is this state as the machine, its calls and its
    /// timers show it (runs' progress aside).
    func looksLike(_ other: StateIdentity) -> Bool {
      untaggedRest == other.untaggedRest && state == other.state && sameOutputs(outputs, other.outputs)
    }
  }

  /// Whether two executions' outputs are the same: by `==` where the
  /// outputs are `Equatable`; otherwise by
  /// ``ActorMVVMSupport/Reflection/canonicalDescription(_:)``, which shows
  /// a class's stored properties (never by `String(reflecting:)`, which
  /// shows a class by its name alone).
  static func sameOutputs(_ lhs: [Machine.Output], _ rhs: [Machine.Output]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.isEmpty { return true }
    if let type = Machine.Output.self as? any Equatable.Type {
      return zip(lhs, rhs).allSatisfy { type.explorationEqual($0, $1) }
    }
    return Reflection.canonicalDescription(lhs) == Reflection.canonicalDescription(rhs)
  }

  /// The first loop on a path, as the machine shows it: the first state
  /// (`end`) that looks like an earlier one (`start`, ``StateIdentity/looksLike(_:)``)
  /// with an `eventually` rule unmet in every state from `start` to `end`.
  /// For a path that reached the depth bound still going round.
  static func repeatedLoop(_ visited: [(identity: StateIdentity, unmet: [String])]) -> (
    rule: String, start: Int, end: Int
  )? {
    for end in visited.indices {
      for start in 0..<end where visited[start].identity.looksLike(visited[end].identity) {
        if let rule = visited[end].unmet.first(where: { rule in
          visited[start...end].allSatisfy { $0.unmet.contains(rule) }
        }) {
          return (rule, start, end)
        }
      }
    }
    return nil
  }

  /// The distinct states seen, each numbered in the order it was first
  /// seen. Two identities are one state when their `rest` is equal, their
  /// states are `==` (the machine's own equality, which `Feature` uses to
  /// skip publishing an unchanged state), and their outputs show alike:
  /// `String(reflecting:)` equal, or — when only the order of a set's or
  /// dictionary's elements differs —
  /// ``ActorMVVMSupport/Reflection/canonicalDescription(_:)`` equal.
  /// Identities are looked up by `rest` and a fingerprint of the bytes of
  /// the outputs' description (which that order does not change); the states
  /// in one bucket are compared one by one, and their outputs by
  /// ``sameOutputs(_:_:)``. The state is never described: describing it
  /// cost a third of an execution.
  struct StateIndex {
    private struct Coarse: Hashable {
      let rest: String
      let outputs: UInt64
    }
    private struct Entry {
      let state: Machine.State
      let outputs: [Machine.Output]
      let node: Int
    }
    private var buckets: [Coarse: [Entry]] = [:]
    private(set) var count = 0

    /// The number of `identity`'s state, and whether it is new.
    mutating func insert(_ identity: StateIdentity) -> (node: Int, isNew: Bool) {
      let outputsText = String(reflecting: identity.outputs)
      let coarse = Coarse(rest: identity.rest, outputs: Self.orderFree(outputsText))
      var entries = buckets[coarse, default: []]
      for index in entries.indices where entries[index].state == identity.state {
        if sameOutputs(entries[index].outputs, identity.outputs) { return (entries[index].node, false) }
      }
      entries.append(Entry(state: identity.state, outputs: identity.outputs, node: count))
      buckets[coarse] = entries
      count += 1
      return (count - 1, true)
    }

    /// A fingerprint of `text` that depends on which bytes it holds, not
    /// on their order: the wrapping sum of a mix of each byte.
    private static func orderFree(_ text: String) -> UInt64 {
      var sum: UInt64 = 0
      for byte in text.utf8 {
        var mixed = (UInt64(byte) &+ 1) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= mixed >> 29
        sum &+= mixed &* 0xBF58_476D_1CE4_E5B9
      }
      return sum
    }
  }
}

/// A replay token that is not one.
public enum ExplorationTokenError: Error, Equatable, CustomStringConvertible {
  /// The line does not start with the token's prefix, or a choice in it is
  /// not a number.
  case malformed(String)

  public var description: String {
    switch self {
    case .malformed(let line): "not an exploration replay token: \(line) (expected \(ExplorationToken.prefix)0.2.1)"
    }
  }
}

/// A failure's replay token: which of the events that could happen each
/// step took, in order (`amvx1:0.2.1`).
enum ExplorationToken {
  static let prefix = "amvx1:"

  static func encode(_ choices: [Int]) -> String {
    prefix + choices.map(String.init).joined(separator: ".")
  }

  static func decode(_ token: String) throws(ExplorationTokenError) -> [Int] {
    let line = token.split(whereSeparator: \.isWhitespace).joined()
    guard line.hasPrefix(prefix) else { throw .malformed(token) }
    let body = line.dropFirst(prefix.count)
    guard !body.isEmpty else { return [] }
    var choices: [Int] = []
    for part in body.split(separator: ".", omittingEmptySubsequences: false) {
      guard let choice = Int(part), choice >= 0 else { throw .malformed(token) }
      choices.append(choice)
    }
    return choices
  }
}

/// A small seeded random stream (SplitMix64): the same seed gives the same
/// numbers on every platform and run.
struct SplitMix64 {
  private var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (`bound` > 0).
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension Equatable {
  /// `==` on two values of this type seen as `Any` (false if either is not one).
  fileprivate static func explorationEqual(_ lhs: Any, _ rhs: Any) -> Bool {
    guard let lhs = lhs as? Self, let rhs = rhs as? Self else { return false }
    return lhs == rhs
  }
}
