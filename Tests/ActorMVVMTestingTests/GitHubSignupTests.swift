import ActorMVVM
import ActorMVVMTestSupport
import ActorMVVMTesting
import ActorMVVMUI
import Foundation
import Testing

// RxExample's GitHub signup (RxSwift's RxExample app, `GithubSignupViewModel1`
// and `GitHubDefaultValidationService`), ported to one state machine, and its
// view-model marble test (`RxExample_iOSTests`) run on `FeatureTimeline` with
// the vectors as RxExample writes them.

/// What a field's validation says (RxExample's `ValidationResult`).
enum ValidationResult: Equatable, Sendable {
  case ok(message: String)
  case empty
  case validating
  case failed(message: String)

  var isValid: Bool { if case .ok = self { true } else { false } }
}

/// The GitHub API the signup form talks to (RxExample's `GitHubAPI`).
protocol GitHubAPI: Sendable {
  func usernameAvailable(_ username: String) async throws -> Bool
  func signup(_ username: String, password: String) async throws -> Bool
}

/// The signup form: username checked against the API as it is typed (the
/// latest check wins, as `flatMapLatest`), passwords validated locally, the
/// button enabled when all three are valid and no signup is running.
struct GitHubSignup: StateMachine {
  struct State: Equatable, Sendable {
    var username = ""
    var password = ""
    var repeatedPassword = ""
    var validatedUsername = ValidationResult.empty
    var signingIn = false

    var validatedPassword: ValidationResult {
      if password.isEmpty { return .empty }
      if password.count < 5 { return .failed(message: "Password must be at least 5 characters") }
      return .ok(message: "Password acceptable")
    }
    var validatedPasswordRepeated: ValidationResult {
      if repeatedPassword.isEmpty { return .empty }
      return repeatedPassword == password ? .ok(message: "Password repeated") : .failed(message: "Password different")
    }
    var signupEnabled: Bool {
      validatedUsername.isValid && validatedPassword.isValid && validatedPasswordRepeated.isValid && !signingIn
    }
  }

  enum Input: Sendable {
    case username(String), password(String), repeatedPassword(String), signupTapped
    case usernameChecked(ValidationResult), signupFinished(Bool)
  }

  enum Output: Sendable, Equatable { case signedIn(Bool) }

  enum CancelID { case usernameCheck, signup }

  let api: any GitHubAPI

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .username(let username):
      state.username = username
      if username.isEmpty {
        state.validatedUsername = .empty
        return .cancel(id: CancelID.usernameCheck)
      }
      if username.rangeOfCharacter(from: CharacterSet.alphanumerics.inverted) != nil {
        state.validatedUsername = .failed(message: "Username can only contain numbers or digits")
        return .cancel(id: CancelID.usernameCheck)
      }
      state.validatedUsername = .validating
      let api = self.api
      return .task(id: CancelID.usernameCheck) {
        try await api.usernameAvailable(username)
          ? .usernameChecked(.ok(message: "Username available"))
          : .usernameChecked(.failed(message: "Username already taken"))
      } catch: { _ in
        .usernameChecked(.failed(message: "Error contacting server"))
      }
    case .usernameChecked(let result):
      state.validatedUsername = result
    case .password(let password):
      state.password = password
    case .repeatedPassword(let password):
      state.repeatedPassword = password
    case .signupTapped:
      guard state.signupEnabled else { return .none }
      state.signingIn = true
      let (api, username, password) = (self.api, state.username, state.password)
      return .task(id: CancelID.signup) {
        .signupFinished(try await api.signup(username, password: password))
      } catch: { _ in
        .signupFinished(false)
      }
    case .signupFinished(let signedIn):
      state.signingIn = false
      return .emit(.signedIn(signedIn))
    }
    return .none
  }
}

/// RxExample's `mockGithubAPI`: answers after 3 ticks ("---t") for
/// availability and 2 ticks ("--t") for signup, on the test's clock.
struct MockGitHubAPI: GitHubAPI {
  struct ServerError: Error {}
  let clock: TestClock
  let tick: Duration

  func usernameAvailable(_ username: String) async throws -> Bool {
    try await clock.sleep(for: tick * 3)
    if username == "secretuser" { throw ServerError() }  // "---#1"
    return username == "secretusername"
  }

  func signup(_ username: String, password: String) async throws -> Bool {
    try await clock.sleep(for: tick * 2)
    return username == "secretusername" && password == "secret"
  }
}

extension ValidationResult {
  /// The element name RxExample's test gives each result.
  var marble: String {
    switch self {
    case .empty: "e"
    case .failed: "f"
    case .ok: "o"
    case .validating: "v"
    }
  }
}

@Suite("GitHub signup: RxExample's view-model marble test on FeatureTimeline", .testBubble)
struct GitHubSignupTests {
  @Test("RxExample's timelines in, validatedUsername and signupEnabled out, as RxExample expects")
  func enabledUserInterfaceElements() async throws {
    // RxExample expects "e---v--f--v--f---v--o----------------" and
    // "f--------------------------------t---" (our diagrams drop trailing -).
    let tick = Duration.milliseconds(200)  // RxExample's resolution
    let timelines = await FeatureTimeline.run(
      inputs: [
        "username": "e---u1----u2-----u3-----------------",
        "password": "e----------------------p1-----------",
        "repeatedPassword": "e---------------------------p2---p1-",
      ],
      values: [
        "u1": "verysecret", "u2": "secretuser", "u3": "secretusername",
        "p1": "huge secret", "p2": "secret", "e": "",
      ],
      tick: tick,
      feature: { clock in
        Feature(GitHubSignup(api: MockGitHubAPI(clock: clock, tick: tick)), initialState: .init())
      },
      bind: { feature, inputs in
        feature.bind(inputs["username"], to: GitHubSignup.Input.username)
        feature.bind(inputs["password"], to: GitHubSignup.Input.password)
        feature.bind(inputs["repeatedPassword"], to: GitHubSignup.Input.repeatedPassword)
      },
      record: [
        "validatedUsername": { $0.validatedUsername.marble },
        "signupEnabled": { $0.signupEnabled ? "t" : "f" },
      ]
    )
    #expect(timelines["validatedUsername"] == "e---v--f--v--f---v--o")
    #expect(timelines["signupEnabled"] == "f--------------------------------t")
  }

  @MainActor
  @Test("The screen: typed fields validate, the button enables, a tap signs in and prompts")
  func screen() async throws {
    let clock = TestClock()
    let tick = Duration.milliseconds(200)
    let feature = Feature(GitHubSignup(api: MockGitHubAPI(clock: clock, tick: tick)), initialState: .init())
    let screen = GitHubSignupScreen(feature: feature)
    screen.username.wrappedValue = "secret user"
    await screen.model.caughtUp()
    #expect(screen.usernameMessage == "Username can only contain numbers or digits")
    screen.username.wrappedValue = "secretusername"
    screen.password.wrappedValue = "secret"
    screen.repeatedPassword.wrappedValue = "secret"
    await screen.model.caughtUp()
    #expect(screen.usernameMessage == "…")
    #expect(!screen.signupEnabled)
    await clock.advance(by: tick * 3)  // the availability check answers
    await screen.model.caughtUp()
    #expect(screen.usernameMessage == "Username available")
    #expect(screen.signupEnabled)
    screen.signupTapped()
    await screen.model.caughtUp()
    #expect(!screen.signupEnabled, "disabled while signing in")
    await clock.advance(by: tick * 2)
    try await screen.model.settled()
    #expect(screen.prompts.shown == ["Mock: Signed in to GitHub."])
    #expect(screen.signupEnabled)
    await feature.finish()
  }

  @Test("Signing up: the button disables while the request runs, then the result is an output")
  func signingUp() async throws {
    let tick = Duration.milliseconds(200)
    let timelines = await FeatureTimeline.run(
      inputs: [
        "username": "u3-------",
        "password": "p2-------",
        "repeatedPassword": "p2-------",
        "taps": "-----x---",
      ],
      values: ["u3": "secretusername", "p2": "secret", "x": ""],
      tick: tick,
      feature: { Feature(GitHubSignup(api: MockGitHubAPI(clock: $0, tick: tick)), initialState: .init()) },
      bind: { feature, inputs in
        let fields: [(String, @Sendable (String) -> GitHubSignup.Input)] = [
          ("username", GitHubSignup.Input.username), ("password", GitHubSignup.Input.password),
          ("repeatedPassword", GitHubSignup.Input.repeatedPassword),
        ]
        for (name, input) in fields { feature.bind(inputs[name], to: input) }
        feature.bind(inputs["taps"]) { _ in GitHubSignup.Input.signupTapped }
      },
      record: ["signupEnabled": { $0.signupEnabled ? "t" : "f" }],
      output: { output in
        switch output {
        case .signedIn(let success): success ? "s" : "x"
        }
      }
    )
    // Valid at 3 (the availability check answers), disabled from the tap
    // at 5 until the signup answers at 7.
    #expect(timelines["signupEnabled"] == "f--t-f-t")
    #expect(timelines["outputs"] == "-------s")
  }
}

/// The signup screen, as a view layer would hold it: three text fields
/// bound to the machine, the button's state and the username's message.
@MainActor
final class GitHubSignupScreen {
  let model: FeatureModel<GitHubSignup>
  lazy var username = model.binding(\.username, send: GitHubSignup.Input.username)
  lazy var password = model.binding(\.password, send: GitHubSignup.Input.password)
  lazy var repeatedPassword = model.binding(\.repeatedPassword, send: GitHubSignup.Input.repeatedPassword)
  /// What the screen's wireframe prompted (RxExample's `promptFor`).
  final class Prompts {
    var shown: [String] = []
  }
  let prompts = Prompts()

  init(feature: Feature<GitHubSignup>) {
    model = FeatureModel(feature) { [prompts] output in
      guard case .signedIn(let success) = output else { return }
      prompts.shown.append(success ? "Mock: Signed in to GitHub." : "Mock: Sign in to GitHub failed")
    }
  }

  var signupEnabled: Bool { model.signupEnabled }

  var usernameMessage: String {
    switch model.validatedUsername {
    case .ok(let message), .failed(let message): message
    case .validating: "…"
    case .empty: ""
    }
  }

  func signupTapped() { model.send(.signupTapped) }
}
