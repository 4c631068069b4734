import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import AppCoordinator
import InterviewApp
import InterviewFeature
import LoginFeature
import Testing

/// The interview app's navigation rules, driven through `FlowMachine` in every order.
enum NavigationRules {
  static let alice = User(id: "alice", name: "Alice", memIdx: 1)
  static let bob = User(id: "bob", name: "Bob", memIdx: 2)
  static let link = DeepLink.analysisComplete(memIdx: 1, termNo: 101)

  static func loggedIn(_ user: User) -> InterviewFlow.Event {
    let session = LoginSession(user: user, tokens: TokenPair(accessToken: "a", refreshToken: "r", expiresIn: 60))
    return .output(.login(.loggedIn(session)), from: .login)
  }

  static let alphabet: [InterviewFlow.Event] = [
    .deepLink(link), loggedIn(alice), loggedIn(bob),
    .output(.myPage(.loggedOut), from: .myPage),
  ]

  /// Who is logged in after `events`, by the outputs that log in and out.
  static func member(after events: some Sequence<InterviewFlow.Event>) -> User? {
    var member: User?
    for event in events {
      if case .output(.login(.loggedIn(let session)), _) = event { member = session.user }
      if case .output(.myPage(.loggedOut), _) = event { member = nil }
    }
    return member
  }

  /// Each delivery of a deep link to the home screen goes to the member
  /// logged in when it is made, and no link is delivered more often than
  /// links arrived.
  static func deliveredOnceToTheMember<Chore>(
    _ inputs: [InterviewFlow.Event], _ outputs: [[NavigationCommand<Chore>]], _ before: [Int]
  ) -> Bool {
    var delivered = 0
    for (commands, sent) in zip(outputs, before) {
      for command in commands {
        guard case .send(let payload, _) = command,
          case .deepLinkReceived(_, let member)? = payload.value as? HomeMachine.Input
        else { continue }
        delivered += 1
        let links = inputs.prefix(sent).filter { if case .deepLink = $0 { true } else { false } }.count
        guard member == self.member(after: inputs.prefix(sent)), delivered <= links else { return false }
      }
    }
    return true
  }

  static func exploration<Flow: AppFlow>(_ flow: Flow) -> Exploration<FlowMachine<Flow>>
  where Flow.State: Equatable, Flow.Link == DeepLink, Flow.Output == InterviewOutput {
    Exploration<FlowMachine<Flow>>(inputs: .alphabet(alphabet, count: 5)) { _ in
      (FlowMachine(flow), FlowMachine.State(flow))
    }
    .invariant("the stack never loses its root") { !$0.state.navigation.stack.isEmpty }
    .invariant("a kept deep link is delivered once, to the member who logged in") {
      deliveredOnceToTheMember($0.inputs, $0.outputs, $0.inputsBeforeOutput)
    }
  }
}

@Suite("Exploring every order: the interview app's navigation", .testBubble)
struct NavigationExplorationTests {
  @Test(
    "Any 5 of a deep link, two members' logins and a logout, in any order: the root stays, and a kept link reaches the member who logged in, once"
  )
  func keptLinkDeliveredOnce() async {
    let report = await NavigationRules.exploration(InterviewFlow()).explore()
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
