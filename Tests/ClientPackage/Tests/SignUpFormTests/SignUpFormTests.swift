import ActorMVVM
import ActorMVVMTesting
import ActorMVVMUI
import SignUpForm
import Testing

// Each test in a test bubble: its clock's waits count its own work only (on an
// Apple build, the only job count there is), and it fails if it leaves a task blocked.
@MainActor
@Suite(.timeLimit(.minutes(1)), .testBubble) struct SignUpFormTests {
  @Test func typingEnablesSubmitAndSuccessOpensHome() async throws {
    let feature = Feature(SignUp(register: { email, _ in "id-\(email)" }), initialState: .init())
    let screen = SignUpScreen(feature: feature)
    screen.email.wrappedValue = "a@b.c"
    #expect(!screen.submitEnabled, "the password is still empty")
    screen.password.wrappedValue = "correct horse"
    #expect(screen.submitEnabled)
    screen.submit()
    try await screen.model.settled()
    #expect(screen.openedHome == "id-a@b.c")
    #expect(await feature.state.credentials.email == "a@b.c")
    await feature.finish()
  }

  @Test func aTypedErrorIsShownAndClearedByTyping() async throws {
    let feature = Feature(
      SignUp(register: { _, _ throws(SignUpError) in throw .emailTaken }), initialState: .init())
    let screen = SignUpScreen(feature: feature)
    screen.email.wrappedValue = "a@b.c"
    screen.password.wrappedValue = "12345678"
    screen.submit()
    try await screen.model.settled()
    #expect(screen.model.error == .emailTaken)
    screen.email.wrappedValue = "b@b.c"
    try await screen.model.settled()
    #expect(screen.model.error == nil)
    await feature.finish()
  }

  @Test func theMachineStepByStep() async throws {
    let tester = FeatureTester(SignUp(register: { _, _ in "42" }), initialState: .init())
    await tester.send(.credentials(.emailChanged("a@b.c"))) { $0.credentials.email = "a@b.c" }
    await tester.send(.submitTapped)  // not valid yet: nothing happens
    await tester.send(.credentials(.passwordChanged("12345678"))) { $0.credentials.password = "12345678" }
    await tester.send(.submitTapped) { $0.isSubmitting = true }
    await tester.receive(.registered(userID: "42")) { $0.isSubmitting = false }
    await tester.expectOutput(.signedUp(userID: "42"))
    await tester.finish()
  }
}
