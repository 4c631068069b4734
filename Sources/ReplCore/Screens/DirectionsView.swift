import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMStorage
import DirectionsFeature
import InterviewApp

/// The route finder (seed 003).
extension DirectionsScreen: ScreenView {

  func commands() -> [ScreenCommand] {
    [
      ScreenCommand("location", usage: "location <lat> <lng>") { arguments throws(ReplError) in
        feature.send(.locationUpdated(try arguments.coordinate()))
      },
      ScreenCommand("tap", usage: "tap <lat> <lng>") { arguments throws(ReplError) in
        feature.send(.mapTapped(try arguments.coordinate()))
      },
      .sending("reset", .resetMarkersTapped, to: feature),
      .sending("route", .drawPathTapped, to: feature),
      ScreenCommand("detail") { arguments throws(ReplError) in
        try arguments.none()
        if await feature.state.summary == nil {
          arguments.noChange(because: "no route yet: `location`, `tap` a start and a goal, then `route`")
        }
        feature.send(.detailTapped)
      },
      .sending("close", .detailClosed, to: feature),
    ]
  }

  func fields(of state: Machine.State) -> [Field] {
    func point(_ c: Coordinate?) -> JSONValue { FieldValue.optional(c) { .string($0.description) } }
    return [
      ("location", point(state.currentLocation)), ("start", point(state.start)), ("goal", point(state.goal)),
      ("pathPoints", FieldValue.number(state.path.count)),
      (
        "summary",
        FieldValue.optional(state.summary) {
          .string(
            "\($0.distanceMetres) m, \($0.duration.components.seconds / 60) min, toll \($0.tollFare) KRW, taxi \($0.taxiFare) KRW, fuel \($0.fuelPrice) KRW"
          )
        }
      ),
      (
        "guide",
        .array(state.isDetailShown ? state.guide.map { .string("\($0.instructions) (\($0.distanceMetres) m)") } : [])
      ),
      ("detailShown", .bool(state.isDetailShown)), ("isLoading", .bool(state.isLoading)),
      ("error", FieldValue.error(state.error)),
    ]
  }
}
