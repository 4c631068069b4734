import ActorMVVM

/// FindNumber's three records and their persistence, as a machine of its
/// own that ``FindNumberMachine`` runs inside its `reduce` through a
/// ``Scope``. The game decides *when* a round is won or lost; this machine
/// owns the rules for what that does to the records and the rule that
/// every change is saved, so no path through the game can forget a save.
///
/// - A won round: round + 1, current + 1, best = max(best, current + 1).
/// - A lost round: round 1, current 0 (best stays).
/// - A reset: round 1, best 0, current 0.
/// - Every change bumps ``State/revision`` and saves the records under it,
///   so the store ends on the newest records when saves overlap; saves run
///   to completion, so a change made by the last input survives `finish()`.
///   A failed save leaves the records in memory and emits the error.
public struct RecordsMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var records: GameRecords
    /// Bumped on every change of the records; orders their saves.
    public var revision = 0

    public init(records: GameRecords = GameRecords()) { self.records = records }
  }

  public enum Input: Sendable, Equatable {
    case roundWon
    case roundLost
    case reset
    case saveFailed(FindNumberError)
  }

  public enum Output: Sendable, Equatable {
    case saveFailed(FindNumberError)
  }

  let repository: any RecordRepository

  public init(repository: any RecordRepository) { self.repository = repository }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    let before = state.records
    switch input {
    case .roundWon:
      state.records.bestRecord = max(state.records.bestRecord, state.records.currentRecord + 1)
      state.records.round += 1
      state.records.currentRecord += 1
    case .roundLost:
      state.records.round = 1
      state.records.currentRecord = 0
    case .reset:
      state.records = GameRecords()
    case .saveFailed(let error):
      return .emit(.saveFailed(error))
    }
    guard state.records != before else { return .none }
    state.revision += 1
    let (repository, records, revision) = (self.repository, state.records, state.revision)
    return .run(onFinish: .runToCompletion) { (_) async throws(FindNumberError) in
      try await repository.save(records, revision: revision)
    } catch: {
      .saveFailed($0)
    }
  }
}
