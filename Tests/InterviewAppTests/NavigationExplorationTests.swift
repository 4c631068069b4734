import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMTestSupport
import ActorMVVMTesting
import AppExplorations
import InterviewApp
import InterviewFeature
import Testing

@Suite("Exploring every order: the interview app's navigation", .testBubble)
struct NavigationExplorationTests {
  @Test(
    "Any 5 of a deep link, two members' logins and a logout, in any order: the root stays, and a kept link reaches the member who logged in, once"
  )
  func keptLinkDeliveredOnce() async {
    let report = await NavigationRules.shipped.explore()
    print("interview navigation, any 5 of 4 events: \(report)")
    #expect(report.failure == nil, "\(report)")
    #expect(report.exhaustive)
  }
}

/// `InterviewFlow` with a bug put back: a kept link is delivered but kept,
/// so the next login gets it again.
struct FlowKeepingDeliveredLinks: AppFlow {
  let base = InterviewFlow()
  var initialState: InterviewFlow.State { base.initialState }

  func parse(deepLink text: String) throws(DeepLinkError) -> DeepLink { try base.parse(deepLink: text) }

  func reduce(into state: inout InterviewFlow.State, _ event: InterviewFlow.Event, navigation: NavigationState)
    -> [NavigationCommand<InterviewFlow.Chore>]
  {
    let kept = state.keptLink
    let commands = base.reduce(into: &state, event, navigation: navigation)
    if case .output = event, kept != nil { state.keptLink = kept }  // the bug: never forgotten
    return commands
  }
}

@Suite("Exploring every order finds a bug put back into the navigation", .testBubble)
struct NavigationExplorationMutantTests {
  @Test("When a delivered link is kept, the shortest order that delivers it twice is found")
  func linkDeliveredTwiceIsFound() async throws {
    let report = await NavigationRules.exploration(FlowKeepingDeliveredLinks()).explore()
    print("navigation keeping delivered links: \(report)")
    let failure = try #require(report.failure)
    #expect(failure.steps.count == 3)
    #expect(failure.steps.first?.description.hasPrefix("send deepLink") == true)
  }
}

@Suite("A seeded search finds a bug put back into the interview app past the budget", .testBubble)
struct NavigationSearchTests {
  @Test(
    "A delivered link kept: breadth first runs out of executions first; a seeded search finds it and its token replays it"
  )
  func linkDeliveredTwiceIsFound() async throws {
    let report = try await NavigationRules.exploration(FlowKeepingDeliveredLinks()).searchPastTheBudget(12)
    print("navigation keeping delivered links, searched: \(report)")
  }
}
