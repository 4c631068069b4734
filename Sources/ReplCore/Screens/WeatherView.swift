import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import InterviewApp
import WeatherFeature

/// The weather screen (seed 000).
extension WeatherScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      ScreenCommand("city", usage: "city <name>, e.g. city Richmond, VA") { arguments throws(ReplError) in
        feature.send(.cityEntered(try arguments.text()))
      }
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    return [
      ("locationName", .string(state.locationName)), ("date", .string(state.date)), ("temp", .string(state.temp)),
      ("description", .string(state.description)), ("summary", .string(state.summary)),
      ("forecastSummary", .string(state.forecastSummary)), ("iconName", .string(state.iconName)),
      ("isLoading", .bool(state.isLoading)), ("error", FieldValue.error(state.error)),
    ]
  }
}
