import ActorMVVM
import ActorMVVMTesting
import Testing

extension Exploration {
  /// Checks that a bug put back needs more than `budget` executions breadth
  /// first — the exploration stops short, not exhaustive, with no failure —
  /// and that a seeded search of `budget` runs finds it, with a token that
  /// replays it. Returns the search's report.
  public func searchPastTheBudget(
    _ budget: Int, _ schedule: Schedule = .pct(changePoints: 2), seed: UInt64 = 1,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> ExplorationReport<Machine> {
    var exploration = self
    exploration.maxExecutions = budget
    let breadth = await exploration.explore()
    #expect(breadth.failure == nil && !breadth.exhaustive, "\(breadth)", sourceLocation: sourceLocation)
    let report = await exploration.search(schedule, seed: seed, runs: budget)
    let failure = try #require(report.failure, "\(report)", sourceLocation: sourceLocation)
    let replayed = try await exploration.replay(token: failure.token)
    #expect(replayed.brokenInvariant != nil, "\(failure.token) replays nothing", sourceLocation: sourceLocation)
    return report
  }
}
