import LoginFeature

/// An interview the member took (the article's `CompletedInterviewData`).
public struct InterviewSummary: Equatable, Sendable {
  public var termNo: Int
  public var title: String
  public var companyName: String
  public var careerName: String
  public var occupationName: String
  public var regDate: String
  public var completed: Bool

  public init(
    termNo: Int, title: String, companyName: String, careerName: String, occupationName: String, regDate: String,
    completed: Bool
  ) {
    self.termNo = termNo
    self.title = title
    self.companyName = companyName
    self.careerName = careerName
    self.occupationName = occupationName
    self.regDate = regDate
    self.completed = completed
  }
}

/// What the home screen shows.
public struct HomeData: Equatable, Sendable {
  public var member: User
  public var unreadCount: Int
  public var interviews: [InterviewSummary]

  public init(member: User, unreadCount: Int, interviews: [InterviewSummary]) {
    self.member = member
    self.unreadCount = unreadCount
    self.interviews = interviews
  }
}

/// The analysis report (the article's `Model.Analysis.Report`).
public struct AnalysisReport: Equatable, Sendable {
  public struct Score: Equatable, Sendable {
    public var name: String
    public var score: Int
    public init(name: String, score: Int) {
      self.name = name
      self.score = score
    }
  }
  public var goodPoints: [String]
  public var improvements: [String]
  public var characterType: String
  public var characterDescription: String
  public var aptitude: [Score]
  public var keywords: [String]

  public init(
    goodPoints: [String], improvements: [String], characterType: String, characterDescription: String,
    aptitude: [Score], keywords: [String]
  ) {
    self.goodPoints = goodPoints
    self.improvements = improvements
    self.characterType = characterType
    self.characterDescription = characterDescription
    self.aptitude = aptitude
    self.keywords = keywords
  }
}

/// A conversation with a company.
public struct MessageRoom: Equatable, Sendable {
  public var roomId: Int
  public var companyName: String
  public var title: String
  public var unreadCount: Int

  public init(roomId: Int, companyName: String, title: String, unreadCount: Int) {
    self.roomId = roomId
    self.companyName = companyName
    self.title = title
    self.unreadCount = unreadCount
  }
}

/// One message in a room.
public struct Message: Equatable, Sendable {
  public var messageId: Int
  public var sender: String
  public var text: String
  public var sentAt: String

  public init(messageId: Int, sender: String, text: String, sentAt: String) {
    self.messageId = messageId
    self.sender = sender
    self.text = text
    self.sentAt = sentAt
  }
}

/// How a report ("declare") of a message ended.
public enum DeclareResult: Equatable, Sendable {
  /// Finish on the web: open this URL.
  case openURL(String)
  /// Handled: show the "declare complete" alert.
  case completed
}

/// The member's page.
public struct MyPageData: Equatable, Sendable {
  public var member: User
  public var membershipDaysLeft: Int

  public init(member: User, membershipDaysLeft: Int) {
    self.member = member
    self.membershipDaysLeft = membershipDaysLeft
  }
}

/// Whether the service is open.
public struct ServiceStatus: Equatable, Sendable {
  public var available: Bool
  public var notice: String?

  public init(available: Bool, notice: String?) {
    self.available = available
    self.notice = notice
  }
}

/// Everything that can go wrong talking to the interview API.
public enum InterviewError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Nobody is logged in, or the session could not be renewed: log in again.
  case sessionExpired
  /// The service is under maintenance.
  case serviceUnavailable(String)
  /// Not found, or not this member's.
  case notFound
  /// The analysis is not ready yet.
  case notReady
  /// Another status.
  case status(Int)
  /// The request did not complete.
  case failedRequest(String)
  /// The answer did not decode.
  case invalidData(String)
  /// Only the other party's messages can be reported.
  case ownMessage
  /// A report needs a reason.
  case missingReason

  public var description: String {
    switch self {
    case .sessionExpired: "Your session has ended. Please log in again."
    case .missingReason: "Please enter a reason for the report"
    case .serviceUnavailable(let notice): notice
    case .notFound: "Not found"
    case .notReady: "The analysis is not ready yet"
    case .status(let code): "\(code) Error"
    case .failedRequest(let reason): "Request failed: \(reason)"
    case .invalidData(let reason): "Unreadable answer: \(reason)"
    case .ownMessage: "You can only report the other party's messages"
    }
  }
}

/// An error together with the input that triggered it: the article's
/// `error: Driver<(Trigger, Error)>`.
public struct TriggeredError<Trigger: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
  public var trigger: Trigger
  public var error: InterviewError

  public init(_ trigger: Trigger, _ error: InterviewError) {
    self.trigger = trigger
    self.error = error
  }

  public var description: String { "\(trigger): \(error)" }
}
