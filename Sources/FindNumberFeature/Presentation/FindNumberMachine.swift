import ActorMVVM

/// The FindNumber game (seed 002): guess the number the API drew (1–3).
///
/// The article's `ViewModel { Input; Output; transform }` becomes this
/// machine. Rules, exactly as the article:
/// - the target is 1 until a number has been fetched; `gameStart` fetches one;
/// - a right guess fetches a new target, and only when it arrives is the
///   round won (round + 1, currentRecord + 1, bestRecord = max(bestRecord,
///   currentRecord + 1));
/// - a wrong guess: round 1, currentRecord 0, and no request;
/// - `resetStage`: round 1, bestRecord 0, currentRecord 0;
/// - a failed fetch changes no record and emits `.error`.
/// Overlapping inputs follow the article's two streams, each
/// `flatMapLatest`: a `gameStart` supersedes an earlier start's fetch, a
/// `checkNumber` (right or wrong) supersedes an earlier guess's fetch, and
/// neither stream cancels the other, so a start during a round-win fetch
/// keeps the win while a wrong guess during it loses the win.
///
/// The records and their saving are a child machine, ``RecordsMachine``,
/// run inside this one's `reduce` through a ``Scope``: this machine says
/// when a round is won or lost, the child what that does to the records,
/// and it saves every change.
public struct FindNumberMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var target = 1
    /// The records and their save revision (``RecordsMachine``'s state).
    public var saved: RecordsMachine.State
    /// The fetches in flight: a start's, a right guess's, or both.
    public var fetching: Set<Fetch> = []

    public init(records: GameRecords = GameRecords()) { saved = RecordsMachine.State(records: records) }

    /// The three records.
    public var records: GameRecords {
      get { saved.records }
      set { saved.records = newValue }
    }
    /// Bumped on every change of the records; orders their saves.
    public var revision: Int {
      get { saved.revision }
      set { saved.revision = newValue }
    }
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
    /// What the records' own effects feed back (a failed save).
    case records(RecordsMachine.Input)
  }

  /// The two request streams, each latest-wins on its own.
  /// This machine's cancellation ids are its fetches.
  typealias CancelID = Fetch

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
  let records: Scope<State, Input, Output, RecordsMachine>

  public init(numbers: any RandomNumberUseCase, records: any RecordRepository) {
    self.numbers = numbers
    self.records = Scope(
      RecordsMachine(repository: records), state: \State.saved,
      input: { input in
        switch input {
        case .resetStage: .reset
        case .records(let input): input
        default: nil
        }
      },
      embed: Input.records,
      output: { (output: RecordsMachine.Output) in
        switch output {
        case .saveFailed(let error): .error(error)
        }
      })
  }

  /// The state to start from: the stored records, target 1.
  public static func initialState(from records: any RecordRepository) async -> State {
    State(records: await records.load())
  }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    if let effect = records.reduce(into: &state, input) { return effect }  // resetStage, save results
    switch input {
    case .gameStart:
      state.fetching.insert(.start)
      return fetch(.start, then: Input.targetFetched)
    case .checkNumber(let number) where number == state.target:
      state.fetching.insert(.nextRound)
      return fetch(.nextRound, then: Input.nextRoundFetched)
    case .checkNumber:
      state.fetching.remove(.nextRound)
      // The article's flatMapLatest switches to .empty(): a win in flight is lost.
      return .merge(.cancel(id: CancelID.nextRound), records.reduce(into: &state, child: .roundLost))
    case .targetFetched(let target):
      state.fetching.remove(.start)
      state.target = target
      return .none
    case .nextRoundFetched(let target):
      state.fetching.remove(.nextRound)
      state.target = target
      return records.reduce(into: &state, child: .roundWon)
    case .fetchFailed(let fetch, let error):
      state.fetching.remove(fetch)
      return .emit(.error(error))
    case .resetStage, .records:
      return .none  // the records' inputs, reduced by the scope above
    }
  }

  private func fetch(_ fetch: Fetch, then result: @escaping @Sendable (Int) -> Input) -> Effect<Input, Output> {
    let numbers = self.numbers
    return .task(id: fetch) { () async throws(FindNumberError) in
      result(try await numbers.nextTarget())
    } catch: {
      .fetchFailed(fetch, $0)
    }
  }
}
