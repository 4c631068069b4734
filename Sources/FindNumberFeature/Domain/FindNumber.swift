/// The article's `MyError`, plus a failed save of the records.
public enum FindNumberError: Error, Equatable, Sendable, CustomStringConvertible {
  case invalidURL
  case networkError
  case decodingError
  /// The records could not be saved; the game goes on, in memory.
  case storageFailed(String)

  public var description: String {
    switch self {
    case .invalidURL: "invalid URL"
    case .networkError: "network error"
    case .decodingError: "decoding error"
    case .storageFailed(let reason): "records not saved: \(reason)"
    }
  }
}

/// The three persisted records.
public struct GameRecords: Equatable, Sendable {
  /// The stage, from 1.
  public var round: Int
  /// The longest streak of right guesses.
  public var bestRecord: Int
  /// The current streak.
  public var currentRecord: Int

  public init(round: Int = 1, bestRecord: Int = 0, currentRecord: Int = 0) {
    self.round = round
    self.bestRecord = bestRecord
    self.currentRecord = currentRecord
  }
}

/// The next number to find (randomnumberapi: min 1, max 3, count 1).
public protocol RandomNumberUseCase: Sendable {
  func nextTarget() async throws(FindNumberError) -> Int
}

/// Where records live between launches (the article's `UserDefaults`).
public protocol RecordRepository: Sendable {
  /// The stored records; a missing round is 1, missing records 0.
  func load() async -> GameRecords
  /// Saves all three records durably. Saves may run concurrently; one whose
  /// `revision` is lower than a revision already saved is ignored, so the
  /// store always ends on the newest records.
  func save(_ records: GameRecords, revision: Int) async throws(FindNumberError)
}
