import ActorMVVM
import InterviewFeature

/// One interview's analysis report (seed 004), loaded as it appears.
public struct ReportScreen: AppScreen {
  public static let name = "report"
  public static let presentation = Presentation.modal
  public static let needsMember = true
  public static let parameterName: String? = "termNo"
  public let feature: Feature<ReportMachine>

  public init(route: Route, container: AppContainer) async {
    feature = container.feature(
      ReportMachine(analysis: container.interviewAPI), .init(termNo: route.parameter ?? 0), name: Self.name)
  }

  public var firstInput: ReportMachine.Input? { .loadTriggered }

  public static func handle(_ output: ReportMachine.Output, in app: AppCoordinator) async {
    await InterviewFlow.home(on: app).handle(output)
  }
}

extension Route {
  public static func report(termNo: Int) -> Route { Route(ReportScreen.self, parameter: termNo) }
}
