import ActorMVVMStorage

/// Records in a ``KeyValueStore`` under the article's keys "Round",
/// "BestRecord" and "CurrentRecord".
public actor StoredRecordRepository: RecordRepository {
  public static let roundKey = "Round"
  public static let bestRecordKey = "BestRecord"
  public static let currentRecordKey = "CurrentRecord"

  private let store: any KeyValueStore
  private var savedRevision = Int.min
  private var pending: GameRecords?
  private var writing = false

  public init(store: any KeyValueStore) { self.store = store }

  /// The keys and types this repository stores, for a store's shape check.
  public static var storedShape: [(key: String, type: any Decodable.Type)] {
    [(roundKey, Int.self), (bestRecordKey, Int.self), (currentRecordKey, Int.self)]
  }

  public func load() async -> GameRecords {
    // As the article: `integer(forKey:)` is 0 when absent, and round 0 means 1.
    let round = await store.value(Int.self, forKey: Self.roundKey, default: 0)
    return GameRecords(
      round: round == 0 ? 1 : round,
      bestRecord: await store.value(Int.self, forKey: Self.bestRecordKey, default: 0),
      currentRecord: await store.value(Int.self, forKey: Self.currentRecordKey, default: 0))
  }

  public func save(_ records: GameRecords, revision: Int) async throws(FindNumberError) {
    guard revision > savedRevision else { return }
    savedRevision = revision
    pending = records
    // One writer at a time, always writing the newest records it has: a
    // save that arrives while another writes is picked up by that writer.
    guard !writing else { return }
    writing = true
    defer { writing = false }
    while let next = pending {
      pending = nil
      do {
        try await store.set([
          Self.roundKey: .number(Double(next.round)),
          Self.bestRecordKey: .number(Double(next.bestRecord)),
          Self.currentRecordKey: .number(Double(next.currentRecord)),
        ])
      } catch {
        throw .storageFailed(error.description)
      }
    }
  }
}
