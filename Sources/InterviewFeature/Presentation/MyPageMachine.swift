import ActorMVVM

/// My page: the membership and a way out.
public struct MyPageMachine: StateMachine {
  public struct State: Equatable, Sendable {
    public var page: MyPageData?
    public var isLoading = false
    public var error: InterviewError?
    public init() {}
  }

  public enum Input: Sendable, Equatable {
    case appeared
    case logoutTapped
    case loaded(MyPageData)
    case failed(InterviewError)
    case loggedOut
  }

  public enum Output: Sendable, Equatable {
    case loggedOut
    case sessionExpired
  }

  let myPage: any MyPageUseCase
  let session: any SessionUseCase

  public init(myPage: any MyPageUseCase, session: any SessionUseCase) {
    self.myPage = myPage
    self.session = session
  }

  enum CancelID: Hashable, Sendable { case page }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared:
      state.isLoading = true
      let myPage = self.myPage
      return .task(id: CancelID.page) { () async throws(InterviewError) in
        .loaded(try await myPage.myPage())
      } catch: {
        .failed($0)
      }
    case .logoutTapped:
      let session = self.session
      return .run { send in
        await session.logout()
        send(.loggedOut)
      }
    case .loaded(let page):
      state.isLoading = false
      state.page = page
      return .none
    case .failed(let error):
      state.isLoading = false
      state.error = error
      return error == .sessionExpired ? .emit(.sessionExpired) : .none
    case .loggedOut:
      state.page = nil
      return .emit(.loggedOut)
    }
  }
}
