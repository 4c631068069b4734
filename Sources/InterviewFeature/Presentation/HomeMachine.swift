import ActorMVVM
import LoginFeature

/// The home screen: the member's interviews and unread messages, and the
/// deep-link rules of the article's `HomeViewModel`, applied to the member
/// the link arrives for (``Input/deepLinkReceived(_:member:)``, the one
/// logged in when it is delivered; not whatever the screen has loaded):
/// - analysis-complete(memIdx, termNo) opens that report only when that
///   member is `memIdx` (and both are present); otherwise dismiss to main;
/// - expiration 1d/3d/7d opens my page;
/// - an unknown link does nothing; with no member, every link dismisses to main.
public struct HomeMachine: StateMachine {
  public enum Trigger: Equatable, Sendable { case home, unread }

  public struct State: Equatable, Sendable {
    public var member: User?
    public var unreadCount = 0
    public var interviews: [InterviewSummary] = []
    public var isLoading = false
    public var error: TriggeredError<Trigger>?

    public init(member: User? = nil) { self.member = member }
  }

  public enum Input: Sendable, Equatable {
    case appeared
    case refreshUnreadTapped
    /// A link, for `member` (the member logged in when it is delivered, nil for nobody).
    case deepLinkReceived(DeepLink, member: User?)
    case homeLoaded(HomeData)
    case unreadLoaded(Int)
    case failed(TriggeredError<Trigger>)
  }

  public enum Output: Sendable, Equatable {
    case openReport(termNo: Int)
    case openMyPage
    case dismissToMain
    /// The session ended: log in again.
    case sessionExpired
  }

  let home: any HomeUseCase

  public init(home: any HomeUseCase) { self.home = home }

  enum CancelID: Hashable, Sendable { case home, unread }

  public func reduce(into state: inout State, _ input: Input) -> Effect<Input, Output> {
    switch input {
    case .appeared:
      state.isLoading = true
      let home = self.home
      return .task(id: CancelID.home) { () async throws(InterviewError) in
        .homeLoaded(try await home.home())
      } catch: {
        .failed(TriggeredError(.home, $0))
      }
    case .refreshUnreadTapped:
      let home = self.home
      return .task(id: CancelID.unread) { () async throws(InterviewError) in
        .unreadLoaded(try await home.home().unreadCount)
      } catch: {
        .failed(TriggeredError(.unread, $0))
      }
    case .homeLoaded(let data):
      state.isLoading = false
      state.member = data.member
      state.unreadCount = data.unreadCount
      state.interviews = data.interviews
      state.error = nil
      return .none
    case .unreadLoaded(let count):
      state.unreadCount = count
      return .none
    case .failed(let error):
      state.isLoading = false
      state.error = error
      return error.error == .sessionExpired ? .emit(.sessionExpired) : .none
    case .deepLinkReceived(let link, let member):
      guard let member else { return .emit(.dismissToMain) }
      switch link {
      case .analysisComplete(let memIdx?, let termNo?) where memIdx == member.memIdx:
        return .emit(.openReport(termNo: termNo))
      case .analysisComplete:
        return .emit(.dismissToMain)
      case .expiration1d, .expiration3d, .expiration7d:
        return .emit(.openMyPage)
      case .other:
        return .none  // the article's `default: break`
      }
    }
  }
}
