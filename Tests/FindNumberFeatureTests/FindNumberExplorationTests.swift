import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import AppExplorations
import FindNumberFeature
import Testing

@Suite("Exploring every order: FindNumber", .testBubble)
struct FindNumberExplorationTests {
  @Test(
    "Any 4 guesses, right or wrong, each win's fetch answered 1, 2 or failed in any order: the records follow the article's rules, best ≥ current, and what is saved is what is shown"
  )
  func recordsFollowTheRules() async {
    let report = await FindNumberRules.shipped.explore()
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
  static let exploration = FindNumberRules.exploration { world in
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
