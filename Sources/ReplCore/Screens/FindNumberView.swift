import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import FindNumberFeature
import InterviewApp

/// The FindNumber game (seed 002). The answer is kept off the view.
extension FindNumberScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      .sending("start", .gameStart, to: feature),
      ScreenCommand("check", usage: "check <1|2|3>") { arguments throws(ReplError) in
        let guess = try arguments.int(in: 1...3)
        let state = await feature.state
        if !state.isLoading, guess != state.target, state.round == 1, state.currentRecord == 0 {
          arguments.noChange(because: "a wrong guess at round 1 stays at round 1, with no streak to lose")
        }
        feature.send(.checkNumber(guess))
      },
      .sending("reset", .resetStage, to: feature),
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("round", FieldValue.number(state.round)), ("bestRecord", FieldValue.number(state.bestRecord)),
      ("currentRecord", FieldValue.number(state.currentRecord)), ("stage", .string(state.stageText)),
      ("best", .string(state.bestRecordText)), ("current", .string(state.currentRecordText)),
      ("isLoading", .bool(state.isLoading)),
    ]
  }

  /// The answer: the article keeps it out of the view (it is an output for tests).
  func hiddenFields(of state: Machine.State) -> [Field] {
    [("target", FieldValue.number(state.target))]
  }
}
