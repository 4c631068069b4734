// How long exploring every order takes: the five apps' shipped machines
// (weather, login, findnumber, directions, the interview app's navigation),
// explored as their tests explore them (AppExplorations holds the stubs, the
// rules and the explorations both use). A separate executable from
// `Benchmarks`: exploring needs ActorMVVMTesting, which `Benchmarks` does
// not link. Each exploration makes its own test bubble.
//
//   swift run -c release ExplorationBenchmark            # all five apps
//   swift run -c release ExplorationBenchmark login      # the apps whose name contains "login"
import ActorMVVM
import ActorMVVMTesting
import AppExplorations
import Foundation

/// One app's exploration: its name and a run that returns how many
/// executions and distinct states it explored.
struct App {
  let name: String
  let explore: @Sendable () async -> (executions: Int, distinctStates: Int)

  init<Machine: StateMachine>(_ name: String, _ exploration: Exploration<Machine>) {
    self.name = name
    explore = {
      let report = await exploration.explore()
      return (report.executions, report.distinctStates)
    }
  }
}

let apps = [
  App("weather", WeatherWorld.exploration),
  App("login", LoginRules.exploration),
  App("findnumber", FindNumberRules.shipped),
  App("directions", DirectionsRules.exploration),
  App("navigation", NavigationRules.shipped),
]

let filter = CommandLine.arguments.dropFirst().first
let chosen = apps.filter { app in filter.map { app.name.contains($0) } ?? true }
if chosen.isEmpty {
  print("no app's name contains \"\(filter ?? "")\"; the apps: \(apps.map(\.name).joined(separator: ", "))")
  exit(1)
}

for app in chosen {
  var times: [Duration] = []
  var last = (executions: 0, distinctStates: 0)
  for _ in 0..<5 {
    let start = ContinuousClock.now
    last = await app.explore()
    times.append(.now - start)
  }
  let median = times.sorted()[2]
  let seconds = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
  print(
    app.name.padding(toLength: 12, withPad: " ", startingAt: 0)
      + String(
        format: "%5d executions %5d states %8.1f ms %8.0f executions/s", last.executions, last.distinctStates,
        seconds * 1_000, Double(last.executions) / seconds))
}
