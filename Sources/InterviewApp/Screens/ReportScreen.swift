import ActorMVVM
import ActorMVVMCoordinator
import InterviewFeature

/// One interview's analysis report (seed 004), loaded as it appears.
public struct ReportScreen: AppScreen, MemberScreen {
  public typealias Dependencies = InterviewContainer
  public static let name = "report"
  public static let presentation = Presentation.modal
  public static let parameterName: String? = "termNo"
  public let feature: Feature<ReportMachine>

  public static func appOutput(_ output: ReportMachine.Output) -> InterviewOutput { .report(output) }

  public init(route: Route, dependencies container: InterviewContainer) async {
    feature = container.feature(
      ReportMachine(analysis: container.interviewAPI), .init(termNo: route.parameter ?? 0), name: Self.name)
  }

  public var firstInput: ReportMachine.Input? { .loadTriggered }
}

extension Route {
  public static func report(termNo: Int) -> Route { Route(ReportScreen.self, parameter: termNo) }
}
