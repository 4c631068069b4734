import ActorMVVM
import FindNumberFeature

/// The FindNumber game (seed 002): starts a game as it appears, with the
/// records saved by the last one.
public struct FindNumberScreen: AppScreen {
  public static let name = "findnumber"
  public static let presentation = Presentation.push
  public let feature: Feature<FindNumberMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      FindNumberMachine(numbers: container.numbers, records: container.records),
      await FindNumberMachine.initialState(from: container.records), name: Self.name)
  }

  public var firstInput: FindNumberMachine.Input? { .gameStart }

  /// Nothing it emits navigates.
  public static func handle(_ output: FindNumberMachine.Output, in app: AppCoordinator) async {}
}

extension Route {
  public static var findNumber: Route { Route(FindNumberScreen.self) }
}
