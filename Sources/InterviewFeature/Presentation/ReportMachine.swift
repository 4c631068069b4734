import ActorMVVM

/// The analysis report (the article's `ReportViewModel`): `load` shows the
/// title section; the total-report trigger fetches the report (token
/// refreshed first if needed) and shows every section. Errors carry the
/// trigger that caused them. Activity is tracked by `reduce` (the article's
/// `trackActivity`): `loading` holds the triggers whose request is in
/// flight, and `isLoading` is true while any is.
public struct ReportMachine: StateMachine {
  public enum Trigger: Hashable, Sendable { case load, totalReport }

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
    /// The triggers whose request is in flight.
    public var loading: Set<Trigger> = []
    public var error: TriggeredError<Trigger>?

    public init(termNo: Int) { self.termNo = termNo }

    /// Whether any request is in flight.
    public var isLoading: Bool { !loading.isEmpty }
  }

  public enum Input: Sendable, Equatable {
    case loadTriggered
    case totalReportTriggered
    case interviewLoaded(InterviewSummary)
    case reportLoaded(AnalysisReport)
    case failed(TriggeredError<Trigger>)
  }

  public enum Output: Sendable, Equatable {
    case sessionExpired
  }

  let analysis: any AnalysisUseCase

  public init(analysis: any AnalysisUseCase) {
    self.analysis = analysis
  }

  enum CancelID: Hashable, Sendable { case load, total }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    let (analysis, termNo) = (self.analysis, state.termNo)
    switch input {
    case .loadTriggered:
      state.loading.insert(.load)
      return .task(id: CancelID.load) { () async throws(InterviewError) in
        .interviewLoaded(try await analysis.interview(termNo: termNo))
      } catch: {
        .failed(TriggeredError(.load, $0))
      }
    case .totalReportTriggered:
      state.loading.insert(.totalReport)
      return .task(id: CancelID.total) { () async throws(InterviewError) in
        .reportLoaded(try await analysis.analysisReport(termNo: termNo))
      } catch: {
        .failed(TriggeredError(.totalReport, $0))
      }
    case .interviewLoaded(let interview):
      state.interview = interview
      state.sections = [.title(interview)]
      state.error = nil
      state.loading.remove(.load)
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
      state.loading.remove(.totalReport)
      return .none
    case .failed(let error):
      state.error = error
      state.loading.remove(error.trigger)
      return error.error == .sessionExpired ? .emit(.sessionExpired) : .none
    }
  }
}
