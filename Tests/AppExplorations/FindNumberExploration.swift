import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTesting
import FindNumberFeature

/// The random-number API, answered by the explorer: 1, 2, or a network error.
public struct ExploredNumbers: RandomNumberUseCase {
  public let call: ExploredCall<String, Int, FindNumberError>

  public init(_ world: ExplorationWorld) {
    call = world.call(
      "nextTarget",
      answers: { (_: String) -> [Result<Int, FindNumberError>] in [.success(1), .success(2), .failure(.networkError)] },
      whenCancelled: FindNumberError.networkError)
  }

  public func nextTarget() async throws(FindNumberError) -> Int { try await call("") }
}

/// A repository that keeps the newest records saved (by revision) in the world, for the invariants.
public struct RememberingRepository: RecordRepository {
  public let world: ExplorationWorld
  let newest = Locked<(revision: Int, records: GameRecords)>((0, GameRecords()))

  public init(world: ExplorationWorld) { self.world = world }

  public func load() async -> GameRecords { GameRecords() }

  public func save(_ records: GameRecords, revision: Int) async throws(FindNumberError) {
    let kept = newest.withLock { newest -> GameRecords in
      if revision > newest.revision { newest = (revision, records) }
      return newest.records
    }
    world.remember(kept, as: "saved")
  }
}

/// The article's rules, replayed over the events of an explored order:
/// what the records must be. Only right guesses fetch here (no gameStart),
/// so every answer is a right guess's.
public enum FindNumberRules {
  public static func expectedRecords(_ steps: [ExplorationStep<FindNumberMachine.Input>]) -> GameRecords {
    var records = GameRecords()
    var target = 1
    var winInFlight = false
    let answers = [1, 2]
    for step in steps {
      switch step {
      case .send(.checkNumber(let number)) where number == target: winInFlight = true
      case .send(.checkNumber):
        records.round = 1
        records.currentRecord = 0
        winInFlight = false  // a wrong guess cancels the win in flight
      case .answer(_, let answer) where winInFlight:
        winInFlight = false
        guard answer < answers.count else { continue }  // the network error: no record changes
        target = answers[answer]
        records.round += 1
        records.currentRecord += 1
        records.bestRecord = max(records.bestRecord, records.currentRecord)
      default: break
      }
    }
    return records
  }

  public static let alphabet: [FindNumberMachine.Input] = [.checkNumber(1), .checkNumber(2)]

  /// Any 4 guesses, right or wrong, each win's fetch answered 1, 2 or
  /// failed in every order, on the machine `build` makes: the rules'
  /// invariants, and what is saved is what is shown.
  public static func exploration<Machine: StateMachine>(
    _ build: @escaping @Sendable (ExplorationWorld) -> Machine
  ) -> Exploration<Machine> where Machine.State == FindNumberMachine.State, Machine.Input == FindNumberMachine.Input {
    Exploration<Machine>(inputs: .alphabet(alphabet, count: 4)) { world in (build(world), .init()) }
      .invariant("bestRecord ≥ currentRecord") { $0.state.bestRecord >= $0.state.currentRecord }
      .invariant(
        "the records are the article's rules applied to the events so far (a wrong guess during a right guess's fetch ends at round 1)"
      ) {
        $0.state.records == expectedRecords($0.steps)
      }
      .whenSettled("the records persisted equal the state's") {
        ($0.world.remembered("saved", as: GameRecords.self) ?? GameRecords()) == $0.state.records
      }
      .reading(.events)  // the rules' model replays every event
  }

  /// The shipped machine, explored.
  public static let shipped = exploration { world in
    FindNumberMachine(numbers: ExploredNumbers(world), records: RememberingRepository(world: world))
  }
}
