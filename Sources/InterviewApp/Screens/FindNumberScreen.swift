import ActorMVVM
import ActorMVVMCoordinator
import FindNumberFeature

/// The FindNumber game (seed 002): starts a game as it appears, with the
/// records saved by the last one.
public struct FindNumberScreen: AppScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "findnumber"
  public static let presentation = Presentation.push
  public let feature: Feature<FindNumberMachine>

  public static func appOutput(_ output: FindNumberMachine.Output) -> InterviewOutput { .findNumber(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      FindNumberMachine(numbers: container.numbers, records: container.records),
      await FindNumberMachine.initialState(from: container.records), name: Self.name)
  }

  public var firstInput: FindNumberMachine.Input? { .gameStart }
}

extension Route {
  public static var findNumber: Route { Route(FindNumberScreen.self) }
}
