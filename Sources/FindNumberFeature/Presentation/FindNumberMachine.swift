import ActorMVVM

/// The FindNumber game (seed 002): guess the number the API drew (1–3).
///
/// The article's `ViewModel { Input; Output; transform }` becomes this
/// machine. Rules, exactly as the article:
/// - the target is 1 until a number has been fetched; `gameStart` fetches one;
/// - a right guess fetches a new target, and only when it arrives: round + 1,
///   currentRecord + 1, bestRecord = max(bestRecord, currentRecord + 1);
/// - a wrong guess: round 1, currentRecord 0, and no request;
/// - `resetStage`: round 1, bestRecord 0, currentRecord 0;
/// - a failed fetch changes no record and emits `.error`.
/// Overlapping inputs follow the article's two streams, each
/// `flatMapLatest`: a `gameStart` supersedes an earlier start's fetch, a
/// `checkNumber` (right or wrong) supersedes an earlier guess's fetch, and
/// neither stream cancels the other, so a start during a round-win fetch
/// keeps the win while a wrong guess during it loses the win.
/// Every change of the records is saved; saves carry a revision, so the
/// store ends on the newest records even when saves overlap.
public struct FindNumberMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var target = 1
    public var records: GameRecords
    /// The fetches in flight: a start's, a right guess's, or both.
    public var fetching: Set<Fetch> = []
    /// Bumped on every change of the records; orders their saves.
    public var revision = 0

    public init(records: GameRecords = GameRecords()) { self.records = records }

    /// Whether a fetch is in flight.
    public var isLoading: Bool { !fetching.isEmpty }
    public var round: Int { records.round }
    public var bestRecord: Int { records.bestRecord }
    public var currentRecord: Int { records.currentRecord }

    /// The article's labels.
    public var stageText: String { "스테이지: \(round)" }
    public var bestRecordText: String { "최대: \(bestRecord)번 연속 성공!" }
    public var currentRecordText: String { "현재: \(currentRecord)번 연속 성공!" }
  }

  public enum Input: Sendable, Equatable {
    case gameStart
    case checkNumber(Int)
    case resetStage
    /// A target fetched at the start of a game.
    case targetFetched(Int)
    /// A target fetched after a right guess: the round is won.
    case nextRoundFetched(Int)
    case fetchFailed(Fetch, FindNumberError)
    case saveFailed(FindNumberError)
  }

  /// The two request streams, each latest-wins on its own.
  public enum Fetch: Hashable, Sendable {
    /// The target of a new game (`gameStart`).
    case start
    /// The next round's target after a right guess (`checkNumber`).
    case nextRound
  }

  public enum Output: Sendable, Equatable {
    case error(FindNumberError)
  }

  let numbers: any RandomNumberUseCase
  let records: any RecordRepository

  public init(numbers: any RandomNumberUseCase, records: any RecordRepository) {
    self.numbers = numbers
    self.records = records
  }

  /// The state to start from: the stored records, target 1.
  public static func initialState(from records: any RecordRepository) async -> State {
    State(records: await records.load())
  }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    let before = state.records
    let effect: Effect<Input, Output>
    switch input {
    case .gameStart:
      state.fetching.insert(.start)
      effect = fetch(.start, then: Input.targetFetched)
    case .checkNumber(let number):
      if number == state.target {
        state.fetching.insert(.nextRound)
        effect = fetch(.nextRound, then: Input.nextRoundFetched)
      } else {
        state.records.round = 1
        state.records.currentRecord = 0
        state.fetching.remove(.nextRound)
        effect = .cancel(id: Fetch.nextRound)  // the article's flatMapLatest switches to .empty()
      }
    case .resetStage:
      state.records = GameRecords()
      effect = .none
    case .targetFetched(let target):
      state.fetching.remove(.start)
      state.target = target
      effect = .none
    case .nextRoundFetched(let target):
      state.fetching.remove(.nextRound)
      state.target = target
      state.records.bestRecord = max(state.records.bestRecord, state.records.currentRecord + 1)
      state.records.round += 1
      state.records.currentRecord += 1
      effect = .none
    case .fetchFailed(let fetch, let error):
      state.fetching.remove(fetch)
      effect = .emit(.error(error))
    case .saveFailed(let error):
      effect = .emit(.error(error))
    }
    guard state.records != before else { return effect }
    state.revision += 1
    return .merge(effect, save(state.records, revision: state.revision))
  }

  private func fetch(_ fetch: Fetch, then result: @escaping @Sendable (Int) -> Input) -> Effect<Input, Output> {
    let numbers = self.numbers
    return .task(id: fetch) { () async throws(FindNumberError) in
      result(try await numbers.nextTarget())
    } catch: {
      .fetchFailed(fetch, $0)
    }
  }

  private func save(_ records: GameRecords, revision: Int) -> Effect<Input, Output> {
    let repository = self.records
    // Runs to completion: records changed by the last input before the
    // screen closes are saved even though finish() cancels everything else.
    return .run(onFinish: .runToCompletion) { (_) async throws(FindNumberError) in
      try await repository.save(records, revision: revision)
    } catch: {
      .saveFailed($0)
    }
  }
}
