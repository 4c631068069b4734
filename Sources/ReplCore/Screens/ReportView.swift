import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import InterviewFeature

/// An interview's analysis report.
extension ReportScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      .sending("load", .loadTriggered, to: feature),
      .sending("total", .totalReportTriggered, to: feature),
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("termNo", FieldValue.number(state.termNo)),
      ("title", FieldValue.optional(state.interview) { .string("\($0.title) — \($0.companyName)") }),
      ("sections", .array(state.sections.map { .string(Self.describe($0)) })), ("isLoading", .bool(state.isLoading)),
      ("error", FieldValue.optional(state.error) { .string($0.description) }),
    ]
  }

  static func describe(_ section: ReportMachine.Section) -> String {
    switch section {
    case .title(let interview): "title: \(interview.title)"
    case .tips(let good, let improve): "tips: +\(good.joined(separator: " / ")) ; -\(improve.joined(separator: " / "))"
    case .character(let type, _): "character: \(type)"
    case .aptitude(let scores): "aptitude: " + scores.map { "\($0.name) \($0.score)" }.joined(separator: ", ")
    case .keywords(let keywords): "keywords: " + keywords.joined(separator: ", ")
    }
  }
}
