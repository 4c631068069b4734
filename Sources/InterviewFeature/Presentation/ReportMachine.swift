import ActorMVVM

/// The analysis report (the article's `ReportViewModel`): `load` shows the
/// title section; the total-report trigger fetches the report (token
/// refreshed first if needed), tracks its activity, and shows every
/// section. Errors carry the trigger that caused them.
public struct ReportMachine: StateMachine {
  public enum Trigger: Equatable, Sendable { case load, totalReport }

  public enum Section: Equatable, Sendable {
    case title(InterviewSummary)
    case tips(good: [String], improve: [String])
    case character(type: String, description: String)
    case aptitude([AnalysisReport.Score])
    case keywords([String])
  }

  public struct State: Equatable, Sendable {
    public var termNo: Int
    public var interview: InterviewSummary?
    public var sections: [Section] = []
    public var isLoading = false
    public var error: TriggeredError<Trigger>?

    public init(termNo: Int) { self.termNo = termNo }
  }

  public enum Input: Sendable, Equatable {
    case loadTriggered
    case totalReportTriggered
    case interviewLoaded(InterviewSummary)
    case reportLoaded(AnalysisReport)
    case failed(TriggeredError<Trigger>)
    case loadingChanged(Bool)
  }

  public enum Output: Sendable, Equatable {
    case sessionExpired
  }

  let analysis: any AnalysisUseCase
  let activity: ActivityTracker

  public init(analysis: any AnalysisUseCase, activity: ActivityTracker) {
    self.analysis = analysis
    self.activity = activity
  }

  /// A feature for report `termNo`, its activity tracker bound to `isLoading`.
  public static func makeFeature(
    termNo: Int, analysis: any AnalysisUseCase, counters: LifetimeCounters = .shared
  ) -> Feature<ReportMachine> {
    let activity = ActivityTracker(counters: counters)
    let feature = Feature(
      ReportMachine(analysis: analysis, activity: activity), initialState: State(termNo: termNo), counters: counters)
    feature.bind(activity.isLoadingValues, to: Input.loadingChanged)
    return feature
  }

  enum ID: Hashable, Sendable { case load, total }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    let (analysis, activity, termNo) = (self.analysis, self.activity, state.termNo)
    switch input {
    case .loadTriggered:
      return .task(id: ID.load) { () async throws(InterviewError) in
        .interviewLoaded(
          try await activity.track { () async throws(InterviewError) in try await analysis.interview(termNo: termNo) })
      } catch: {
        .failed(TriggeredError(.load, $0))
      }
    case .totalReportTriggered:
      return .task(id: ID.total) { () async throws(InterviewError) in
        .reportLoaded(
          try await activity.track { () async throws(InterviewError) in
            try await analysis.analysisReport(termNo: termNo)
          })
      } catch: {
        .failed(TriggeredError(.totalReport, $0))
      }
    case .interviewLoaded(let interview):
      state.interview = interview
      state.sections = [.title(interview)]
      state.error = nil
      return .none
    case .reportLoaded(let report):
      state.sections =
        (state.interview.map { [Section.title($0)] } ?? []) + [
          .tips(good: report.goodPoints, improve: report.improvements),
          .character(type: report.characterType, description: report.characterDescription),
          .aptitude(report.aptitude),
          .keywords(report.keywords),
        ]
      state.error = nil
      return .none
    case .failed(let error):
      state.error = error
      return error.error == .sessionExpired ? .emit(.sessionExpired) : .none
    case .loadingChanged(let isLoading):
      state.isLoading = isLoading
      return .none
    }
  }
}
