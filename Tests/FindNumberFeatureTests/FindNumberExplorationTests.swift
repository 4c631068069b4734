import ActorMVVM
import ActorMVVMSupport
import ActorMVVMTestSupport
import ActorMVVMTesting
import FindNumberFeature
import Testing

/// The random-number API, answered by the explorer: 1, 2, or a network error.
struct ExploredNumbers: RandomNumberUseCase {
  let call: ExploredCall<String, Int, FindNumberError>

  init(_ world: ExplorationWorld) {
    call = world.call(
      "nextTarget",
      answers: { (_: String) -> [Result<Int, FindNumberError>] in [.success(1), .success(2), .failure(.networkError)] },
      whenCancelled: FindNumberError.networkError)
  }

  func nextTarget() async throws(FindNumberError) -> Int { try await call("") }
}

/// A repository that keeps the newest records saved (by revision) in the world, for the invariants.
struct RememberingRepository: RecordRepository {
  let world: ExplorationWorld
  let newest = Locked<(revision: Int, records: GameRecords)>((0, GameRecords()))

  func load() async -> GameRecords { GameRecords() }

  func save(_ records: GameRecords, revision: Int) async throws(FindNumberError) {
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
enum FindNumberRules {
  static func expectedRecords(_ steps: [ExplorationStep<FindNumberMachine.Input>]) -> GameRecords {
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

  static let alphabet: [FindNumberMachine.Input] = [.checkNumber(1), .checkNumber(2)]
}

@Suite("Exploring every order: FindNumber", .testBubble)
struct FindNumberExplorationTests {
  static func exploration<Machine: StateMachine>(
    _ build: @escaping @Sendable (ExplorationWorld) -> Machine
  ) -> Exploration<Machine> where Machine.State == FindNumberMachine.State, Machine.Input == FindNumberMachine.Input {
    Exploration<Machine>(inputs: .alphabet(FindNumberRules.alphabet, count: 4)) { world in (build(world), .init()) }
      .invariant("bestRecord ≥ currentRecord") { $0.state.bestRecord >= $0.state.currentRecord }
      .invariant(
        "the records are the article's rules applied to the events so far (a wrong guess during a right guess's fetch ends at round 1)"
      ) {
        $0.state.records == FindNumberRules.expectedRecords($0.steps)
      }
      .whenSettled("the records persisted equal the state's") {
        ($0.world.remembered("saved", as: GameRecords.self) ?? GameRecords()) == $0.state.records
      }
      .reading(.events)  // the rules' model replays every event
  }

  @Test(
    "Any 4 guesses, right or wrong, each win's fetch answered 1, 2 or failed in any order: the records follow the article's rules, best ≥ current, and what is saved is what is shown"
  )
  func recordsFollowTheRules() async {
    let report = await Self.exploration { world in
      FindNumberMachine(numbers: ExploredNumbers(world), records: RememberingRepository(world: world))
    }.explore()
    print("findnumber, 4 guesses × 3 answers: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
  }
}

/// `FindNumberMachine` with a bug put back: a wrong guess does not cancel
/// the win in flight, so the win lands after the loss.
struct FindNumberKeepingTheWin: StateMachine {
  let base: FindNumberMachine

  func reduce(into state: inout FindNumberMachine.State, _ input: FindNumberMachine.Input) -> Effect<
    FindNumberMachine.Input, FindNumberMachine.Output
  > {
    guard case .checkNumber(let number) = input, number != state.target, state.fetching.contains(.nextRound) else {
      return base.reduce(into: &state, input)
    }
    // The loss without its `.cancel(id: .nextRound)` (and without its save:
    // the rules' invariant breaks before the persistence one could).
    state.records.round = 1
    state.records.currentRecord = 0
    return .none
  }
}

@Suite("Exploring every order finds a bug put back into FindNumber", .testBubble)
struct FindNumberExplorationMutantTests {
  static let exploration = FindNumberExplorationTests.exploration { world in
    FindNumberKeepingTheWin(
      base: FindNumberMachine(numbers: ExploredNumbers(world), records: RememberingRepository(world: world)))
  }

  @Test("When a wrong guess keeps the win in flight, the shortest order where the win lands after the loss is found")
  func keptWinIsFound() async throws {
    let report = await Self.exploration.explore()
    print("findnumber keeping the win: \(report)")
    let failure = try #require(report.failure)
    #expect(
      failure.steps.map { $0.description } == [
        "send checkNumber(1)", "send checkNumber(2)", #"answer nextTarget("") with #0"#,
      ])
  }
}

@Suite("A seeded search finds a bug put back into FindNumber past the budget", .testBubble)
struct FindNumberSearchTests {
  @Test(
    "A wrong guess that keeps the win in flight: breadth first runs out of executions first; a seeded search finds it and its token replays it"
  )
  func keptWinIsFound() async throws {
    let report = try await FindNumberExplorationMutantTests.exploration.searchPastTheBudget(8)
    print("findnumber keeping the win, searched: \(report)")
  }
}
