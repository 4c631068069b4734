import ActorMVVM
import ActorMVVMCoordinator
import ActorMVVMTesting
import InterviewApp
import InterviewFeature
import LoginFeature

/// The interview app's navigation rules, driven through `FlowMachine` in every order.
public enum NavigationRules {
  public static let alice = User(id: "alice", name: "Alice", memIdx: 1)
  public static let bob = User(id: "bob", name: "Bob", memIdx: 2)
  public static let link = DeepLink.analysisComplete(memIdx: 1, termNo: 101)

  public static func loggedIn(_ user: User) -> InterviewFlow.Event {
    let session = LoginSession(user: user, tokens: TokenPair(accessToken: "a", refreshToken: "r", expiresIn: 60))
    return .output(.login(.loggedIn(session)), from: .login)
  }

  public static let alphabet: [InterviewFlow.Event] = [
    .deepLink(link), loggedIn(alice), loggedIn(bob),
    .output(.myPage(.loggedOut), from: .myPage),
  ]

  /// Who is logged in after `events`, by the outputs that log in and out.
  public static func member(after events: some Sequence<InterviewFlow.Event>) -> User? {
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
  public static func deliveredOnceToTheMember<Chore>(
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

  public static func exploration<Flow: AppFlow>(_ flow: Flow) -> Exploration<FlowMachine<Flow>>
  where Flow.State: Equatable, Flow.Link == DeepLink, Flow.Output == InterviewOutput {
    Exploration<FlowMachine<Flow>>(inputs: .alphabet(alphabet, count: 5)) { _ in
      (FlowMachine(flow), FlowMachine.State(flow))
    }
    .invariant("the stack never loses its root") { !$0.state.navigation.stack.isEmpty }
    .invariant("a kept deep link is delivered once, to the member who logged in") {
      deliveredOnceToTheMember($0.inputs, $0.outputs, $0.inputsBeforeOutput)
    }
  }

  /// The shipped flow, explored.
  public static let shipped = exploration(InterviewFlow())
}
