import ActorMVVM
import ActorMVVMSupport

extension Exploration {
  /// The transitions a coverage report lists: every declared state case
  /// with every declared input case.
  struct CoverageSpec: Sendable {
    let states: [String]
    let classify: @Sendable (Machine.State) -> String
    let inputs: [String]
  }

  /// The same exploration, reporting what it reached
  /// (``ExplorationReport/coverage``): which transitions — a state case
  /// (`classify` of the state an input found) with an input's case name,
  /// sent or fed back by a run — happened in some execution, and which
  /// effect outcomes: each stubbed call answered, failed, or cancelled
  /// while pending; each run (by its cancellation id) ended, superseded
  /// or cancelled. A machine's cases cannot be listed by reflection, so
  /// `states` and `inputs` declare them: the report lists every pair and
  /// marks the ones never reached, and names any reached pair whose case
  /// was not declared.
  ///
  /// ```swift
  /// exploration.coverage(states: ["idle", "loading"], of: { $0.isLoading ? "loading" : "idle" },
  ///                      inputs: ["cityEntered", "located", "notFound", "weatherLoaded", "failed"])
  /// ```
  ///
  /// Cost: each execution observes its feature's transitions and traces
  /// its runs (a state diff per input); off by default.
  public func coverage(
    states: [String], of classify: @escaping @Sendable (Machine.State) -> String, inputs: [String]
  ) -> Self {
    var copy = self
    copy.coverageSpec = CoverageSpec(states: states, classify: classify, inputs: inputs)
    return copy
  }
}

/// What one exploration's executions reached: the pieces of an
/// ``ExplorationCoverage``, merged across executions.
struct CoverageTally: Sendable {
  /// What one execution reached. Its world fills in the calls; its
  /// feature's transition observer and trace the rest.
  struct Covered: Sendable {
    /// `state case` + "\u{1}" + `input case`.
    var transitions: Set<String> = []
    /// The calls the world made stubs for, by name.
    var calls: Set<String> = []
    /// `name outcome`.
    var callOutcomes: Set<String> = []
    /// The runs' ids seen started ("" for a run without one).
    var runs: Set<String> = []
    /// `id outcome`.
    var runOutcomes: Set<String> = []
    /// Runs superseded or cancelled so far, by number: their end is no "ended".
    var stopped: Set<UInt64> = []
    /// The state case the next transition starts from.
    var current = ""
    /// Set when the execution ends: what its ending cancels is not recorded.
    var closed = false
  }

  var reached = Covered()

  init<Machine: StateMachine>(_: Exploration<Machine>.CoverageSpec) {}

  mutating func add(_ covered: Covered) {
    reached.transitions.formUnion(covered.transitions)
    reached.calls.formUnion(covered.calls)
    reached.callOutcomes.formUnion(covered.callOutcomes)
    reached.runs.formUnion(covered.runs)
    reached.runOutcomes.formUnion(covered.runOutcomes)
  }

  func report<Machine: StateMachine>(_ spec: Exploration<Machine>.CoverageSpec) -> ExplorationCoverage {
    typealias Item = ExplorationCoverage.Item
    var transitions: [Item] = []
    for state in spec.states {
      for input in spec.inputs {
        transitions.append(
          Item(name: "\(state) × \(input)", reached: reached.transitions.contains("\(state)\u{1}\(input)")))
      }
    }
    let declared = Set(spec.states.flatMap { state in spec.inputs.map { input in "\(state)\u{1}\(input)" } })
    let unlisted = reached.transitions.subtracting(declared).sorted().map {
      $0.replacingOccurrences(of: "\u{1}", with: " × ")
    }
    let calls = reached.calls.sorted().flatMap { name in
      ExplorationCoverage.CallOutcome.allCases.map {
        Item(name: "\(name) \($0)", reached: reached.callOutcomes.contains("\(name) \($0)"))
      }
    }
    let runs = reached.runs.sorted().flatMap { id in
      ExplorationCoverage.RunOutcome.allCases.map {
        Item(
          name: "run \(id.isEmpty ? "without an id" : id) \($0)", reached: reached.runOutcomes.contains("\(id) \($0)"))
      }
    }
    return ExplorationCoverage(transitions: transitions, unlisted: unlisted, callOutcomes: calls, runOutcomes: runs)
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

/// What an exploration reached: every declared transition and every
/// effect outcome, each marked reached or not
/// (``Exploration/coverage(states:of:inputs:)``).
public struct ExplorationCoverage: Sendable, CustomStringConvertible {
  /// How a stubbed call ended.
  public enum CallOutcome: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The explorer picked a success.
    case answered
    /// The explorer picked a failure.
    case failed
    /// The caller was cancelled while the call was pending.
    case cancelled
    public var description: String { rawValue }
  }

  /// How a run ended.
  public enum RunOutcome: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Its operation returned, neither superseded nor cancelled.
    case ended
    /// A run with its id started while it ran.
    case superseded
    /// `Effect.cancel(id:)` stopped it (the execution's own end does not count).
    case cancelled
    public var description: String { rawValue }
  }

  /// One transition or outcome, and whether an execution reached it.
  public struct Item: Sendable, Equatable {
    /// `loading × located`, `geocode failed`, `run lookup superseded`.
    public let name: String
    /// Whether some execution reached it.
    public let reached: Bool
  }

  /// Every declared state case with every declared input case, in declaration order.
  public let transitions: [Item]
  /// Transitions reached whose state or input case was not declared.
  public let unlisted: [String]
  /// Every call the world stubbed (by name), with each ``CallOutcome``.
  public let callOutcomes: [Item]
  /// Every run id seen started, with each ``RunOutcome``.
  public let runOutcomes: [Item]

  /// Everything listed and never reached.
  public var unreached: [String] {
    (transitions + callOutcomes + runOutcomes).filter { !$0.reached }.map(\.name)
  }

  public var description: String {
    func count(_ items: [Item]) -> String { "\(items.filter(\.reached).count) of \(items.count)" }
    var lines = [
      "coverage: \(count(transitions)) transitions, \(count(callOutcomes)) call outcomes, "
        + "\(count(runOutcomes)) run outcomes reached (✗ never)"
    ]
    for item in transitions + callOutcomes + runOutcomes { lines.append("  \(item.reached ? "✓" : "✗") \(item.name)") }
    for name in unlisted { lines.append("  ? \(name) (reached; its case was not declared)") }
    return lines.joined(separator: "\n")
  }
}

extension Exploration.Execution {
  /// Watches the feature for a coverage report, if one was asked for:
  /// every transition's state case and input case, and every run's end.
  static func coverageTrace(
    _ spec: Exploration.CoverageSpec?, world: ExplorationWorld
  ) -> FeatureTrace<Machine>? {
    guard spec != nil else { return nil }
    let covered = world.covered
    return FeatureTrace { event in
      guard case .effect(let run) = event else { return }
      covered.withLock { covered in
        guard !covered.closed else { return }
        switch run {
        case .started(_, let id): covered.runs.insert(id ?? "")
        case .superseded(let number, let id):
          covered.stopped.insert(number)
          covered.runOutcomes.insert("\(id ?? "") superseded")
        case .cancelled(let number, let id):
          covered.stopped.insert(number)
          covered.runOutcomes.insert("\(id ?? "") cancelled")
        case .ended(let number, let id):
          if !covered.stopped.contains(number) { covered.runOutcomes.insert("\(id ?? "") ended") }
        }
      }
    }
  }

  /// Observes the feature's transitions for a coverage report.
  static func observeCoverage(
    _ spec: Exploration.CoverageSpec?, feature: Feature<Machine>, initial: Machine.State, world: ExplorationWorld
  ) async {
    guard let spec else { return }
    let covered = world.covered
    covered.withLock { $0.current = spec.classify(initial) }
    _ = await feature.observeTransitions { transition in
      let after = spec.classify(transition.state)
      covered.withLock { covered in
        guard !covered.closed else { return }
        covered.transitions.insert(covered.current + "\u{1}" + Reflection.caseName(transition.input))
        covered.current = after
      }
    }
  }

  /// What this execution reached.
  var covered: CoverageTally.Covered { world.covered.withLock { $0 } }
}
