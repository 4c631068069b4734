import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMSupport
import EmbeddedBackend
import InterviewApp
import LoginFeature
import ReplCore
import Testing

@Suite("App stress")
struct AppStressTests {
  @Test(
    "Coordinator churn: 16 tasks sending deep links, opens and backs; navigation stays valid, popped features finish")
  func coordinatorChurn() async throws {
    let counters = LifetimeCounters()
    let backend = EmbeddedBackend()
    let coordinator = AppCoordinator(
      InterviewApp(
        AppConfiguration(
          httpClient: backend, weatherbitKey: EmbeddedBackend.demoWeatherbitKey,
          naverCredentials: .init(
            clientID: EmbeddedBackend.demoNaverClientID, clientSecret: EmbeddedBackend.demoNaverClientSecret),
          counters: counters)))
    await coordinator.start()
    await coordinator.settle()
    if let login = await coordinator.topScreen?.feature(LoginMachine.self) {
      login.send(.idChanged("alice"))
      login.send(.passwordChanged("secret"))
      login.send(.loginTapped)
    }
    await coordinator.settle()
    // Every navigation state published must be valid.
    let watcher = Task {
      var valid = true
      for await state in coordinator.navigation.values where state.stack.isEmpty && state.modal != nil {
        valid = false
      }
      return valid
    }
    let links = [
      "actormvvm://analysis-complete?memIdx=1&termNo=101", "actormvvm://analysis-complete?memIdx=2&termNo=201",
      "actormvvm://expiration?days=3", "actormvvm://promo", "not a link",
    ]
    let routes: [Route] = [.weather, .findNumber, .directions, .messages, .myPage, .report(termNo: 101), .login]
    await withTaskGroup(of: Void.self) { group in
      for worker in 0..<16 {
        group.addTask {
          for step in 0..<40 {
            switch (worker + step) % 3 {
            case 0: _ = try? await coordinator.handle(deepLink: links[(worker * 7 + step) % links.count])
            case 1: await coordinator.open(routes[(worker * 3 + step) % routes.count])
            default: await coordinator.back()
            }
            let state = await coordinator.state
            #expect(!state.stack.isEmpty, "the root was popped")
          }
        }
      }
    }
    await coordinator.settle()
    let state = await coordinator.state
    #expect(state.stack.first == .home)
    await coordinator.finish()
    #expect(await watcher.value)
    #expect(counters.effects == 0)
    #expect(counters.bindings == 0)
    #expect(counters.subscriptions == 0)
  }

  @Test("10,000 features alive at once, each driven by 100 inputs, then finished: nothing leaks")
  func tenThousandFeatures() async {
    struct Count: StateMachine {
      struct State: Equatable, Sendable { var count = 0 }
      typealias Input = Int
      typealias Output = Never
      func reduce(into state: inout State, _ input: Int) -> Effect<Int, Never> {
        state.count += input
        return .none
      }
    }
    let counters = LifetimeCounters()
    var features: [Feature<Count>] = []
    for _ in 0..<10_000 { features.append(Feature(Count(), initialState: .init(), counters: counters)) }
    #expect(counters.features == 10_000)
    let all = features
    await withTaskGroup(of: Void.self) { group in
      for lane in 0..<4 {
        group.addTask {
          for index in stride(from: lane, to: all.count, by: 4) {
            for _ in 0..<100 { all[index].send(1) }
          }
        }
      }
    }
    var total = 0
    for feature in features {
      await feature.finish()
      total += await feature.state.count
    }
    #expect(total == 1_000_000)
    #expect(counters.effects == 0 && counters.bindings == 0 && counters.subscriptions == 0)
  }

  @Test("REPL: a few thousand random lines, valid and not: it never exits and errors change nothing")
  func replRandomLines() async {
    let clock = VirtualClock()
    let coordinator = ReplApp.makeCoordinator(options: ReplOptions(), environment: [:], clock: clock, warn: { _ in })
    let lines = LinesBox()
    let session = ReplSession(coordinator: coordinator, clock: clock) { lines.append($0) }
    await session.start()
    var random = SystemRandomNumberGenerator()
    let vocabulary = [
      "id alice", "password secret", "login", "open weather", "city Seoul", "open findnumber", "check 1", "check 2",
      "check 3", "back", "open directions", "tap 37.55 126.97", "route", "detail", "state", "help", "cty", "check",
      "open mars", "deeplink actormvvm://expiration?days=7", "deeplink nope", "%%%", "tap 1000 1000", "reset",
    ]
    for _ in 0..<2_000 {
      let line = vocabulary.randomElement(using: &random)!
      let before = await coordinator.state
      let printed = lines.count
      #expect(await session.handle(line))
      if lines.lines[printed...].contains(where: { $0.hasPrefix("error: ") }) {
        #expect(await coordinator.state == before, "\(line) failed but navigated")
      }
    }
    await session.finish()
  }
}

final class LinesBox: Sendable {
  private let storage = Locked<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
  var count: Int { storage.withLock { $0.count } }
}
