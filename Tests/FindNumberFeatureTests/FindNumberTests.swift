import ActorMVVM
import ActorMVVMNetworking
import ActorMVVMNetworkingTesting
import ActorMVVMStorage
import ActorMVVMSupport
import ActorMVVMTesting
import EmbeddedBackend
import FindNumberFeature
import Foundation
import Testing

/// Draws from a script, one number per call; fails where the script says.
final class ScriptedNumbers: RandomNumberUseCase {
  private let script: Locked<[Result<Int, FindNumberError>]>
  init(_ script: [Result<Int, FindNumberError>]) { self.script = Locked(script) }
  func nextTarget() async throws(FindNumberError) -> Int {
    let next = script.withLock { $0.isEmpty ? .failure(.networkError) : $0.removeFirst() }
    return try next.get()
  }
}

@Suite("FindNumber: rules", .testBubble)
struct FindNumberRuleTests {
  func tester(_ script: [Result<Int, FindNumberError>], records: GameRecords = GameRecords())
    -> (FeatureTester<FindNumberMachine>, InMemoryKeyValueStore)
  {
    let store = InMemoryKeyValueStore()
    let machine = FindNumberMachine(numbers: ScriptedNumbers(script), records: StoredRecordRepository(store: store))
    return (FeatureTester(machine, initialState: .init(records: records)), store)
  }

  @Test("The game starts with target 1 until a number is fetched")
  func start() async {
    let (tester, _) = tester([.success(3)])
    #expect(await tester.state.target == 1)
    await tester.send(.gameStart) { $0.fetching = [.start] }
    await tester.receive(.targetFetched(3)) {
      $0.fetching = []
      $0.target = 3
    }
    await tester.finish()
  }

  @Test("A right guess fetches a new target, then round + 1, current + 1, best = max(best, current + 1); saved")
  func rightGuess() async throws {
    let (tester, store) = tester([.success(2)], records: GameRecords(round: 3, bestRecord: 5, currentRecord: 2))
    await tester.send(.checkNumber(1)) { $0.fetching = [.nextRound] }
    await tester.receive(.nextRoundFetched(2)) {
      $0.fetching = []
      $0.target = 2
      $0.records = GameRecords(round: 4, bestRecord: 5, currentRecord: 3)
      $0.revision = 1
    }
    await tester.settle()
    await tester.finish()
    #expect(try await store.value(Int.self, forKey: "Round") == 4)
    #expect(try await store.value(Int.self, forKey: "BestRecord") == 5)
    #expect(try await store.value(Int.self, forKey: "CurrentRecord") == 3)
  }

  @Test("A new best: best becomes current + 1")
  func newBest() async {
    let (tester, _) = tester([.success(1)], records: GameRecords(round: 2, bestRecord: 1, currentRecord: 1))
    await tester.send(.checkNumber(1)) { $0.fetching = [.nextRound] }
    await tester.receive(.nextRoundFetched(1)) {
      $0.fetching = []
      $0.records = GameRecords(round: 3, bestRecord: 2, currentRecord: 2)
      $0.revision = 1
    }
    await tester.settle()
    await tester.finish()
  }

  @Test("A wrong guess: round 1, current 0, and no request")
  func wrongGuess() async {
    let numbers = ScriptedNumbers([])
    let machine = FindNumberMachine(numbers: numbers, records: StoredRecordRepository(store: InMemoryKeyValueStore()))
    let tester = FeatureTester(
      machine, initialState: .init(records: GameRecords(round: 4, bestRecord: 6, currentRecord: 3)))
    await tester.send(.checkNumber(2)) {
      $0.records = GameRecords(round: 1, bestRecord: 6, currentRecord: 0)
      $0.revision = 1
    }
    await tester.settle()
    await tester.finish()
  }

  @Test("Reset: round 1, best 0, current 0")
  func reset() async {
    let (tester, store) = tester([], records: GameRecords(round: 4, bestRecord: 6, currentRecord: 3))
    await tester.send(.resetStage) {
      $0.records = GameRecords()
      $0.revision = 1
    }
    await tester.settle()
    await tester.finish()
    #expect(await store.snapshot["BestRecord"] == .number(0))
  }

  @Test("A failed fetch leaves the records unchanged and emits the error")
  func failedFetch() async {
    let records = GameRecords(round: 2, bestRecord: 3, currentRecord: 1)
    let (tester, _) = tester([.failure(.decodingError)], records: records)
    await tester.send(.checkNumber(1)) { $0.fetching = [.nextRound] }
    await tester.receive(.fetchFailed(.nextRound, .decodingError)) { $0.fetching = [] }
    await tester.expectOutput(.error(.decodingError))
    #expect(await tester.state.records == records)
    await tester.finish()
  }

  @Test("The article's labels")
  func labels() {
    let state = FindNumberMachine.State(records: GameRecords(round: 3, bestRecord: 5, currentRecord: 2))
    #expect(state.stageText == "스테이지: 3")
    #expect(state.bestRecordText == "최대: 5번 연속 성공!")
    #expect(state.currentRecordText == "현재: 2번 연속 성공!")
  }
}

/// A random-number API the test answers by hand, call by call: each call
/// waits (ignoring cancellation, as a request already sent does) until the
/// test answers it, so a superseded fetch answers late.
final class AnsweredByTest: RandomNumberUseCase {
  private struct Calls {
    var pending: [CheckedContinuation<Int, Never>] = []
    var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  }
  private let calls = Locked(Calls())

  func nextTarget() async throws(FindNumberError) -> Int {
    await withCheckedContinuation { continuation in
      let ready = calls.withLock { calls in
        calls.pending.append(continuation)
        let ready = calls.watchers.filter { $0.count <= calls.pending.count }
        calls.watchers.removeAll { $0.count <= calls.pending.count }
        return ready
      }
      for watcher in ready { watcher.continuation.resume() }
    }
  }

  /// Suspends until the API has been called `count` times in all.
  func called(_ count: Int) async {
    await withCheckedContinuation { continuation in
      let done = calls.withLock { calls in
        if calls.pending.count >= count { return true }
        calls.watchers.append((count, continuation))
        return false
      }
      if done { continuation.resume() }
    }
  }

  /// Answers call number `index` (0-based) with `number`. Each call is
  /// answered exactly once.
  func answer(_ index: Int, with number: Int) {
    calls.withLock { $0.pending[index] }.resume(returning: number)
  }
}

@Suite("FindNumber: overlapping inputs, as the article's streams", .testBubble)
struct FindNumberOverlapTests {
  func tester(records: GameRecords) -> (FeatureTester<FindNumberMachine>, AnsweredByTest) {
    let numbers = AnsweredByTest()
    let machine = FindNumberMachine(numbers: numbers, records: StoredRecordRepository(store: InMemoryKeyValueStore()))
    return (FeatureTester(machine, initialState: .init(records: records)), numbers)
  }

  @Test("A wrong guess while a right guess's fetch is in flight cancels it (checkNumber is flatMapLatest)")
  func wrongGuessCancelsTheWin() async {
    let (tester, numbers) = tester(records: GameRecords(round: 3, bestRecord: 5, currentRecord: 2))
    await tester.send(.checkNumber(1)) { $0.fetching = [.nextRound] }
    await numbers.called(1)
    await tester.send(.checkNumber(2)) {
      $0.fetching = []
      $0.records = GameRecords(round: 1, bestRecord: 5, currentRecord: 0)
      $0.revision = 1
    }
    numbers.answer(0, with: 3)  // the cancelled request answers anyway: dropped
    await tester.settle()
    #expect(await tester.state.records == GameRecords(round: 1, bestRecord: 5, currentRecord: 0))
    #expect(await tester.state.target == 1)
    await tester.finish()
  }

  @Test("A second right guess during the fetch supersedes the first: one round won")
  func rightGuessTwice() async {
    let (tester, numbers) = tester(records: GameRecords(round: 2, bestRecord: 1, currentRecord: 1))
    await tester.send(.checkNumber(1)) { $0.fetching = [.nextRound] }
    await numbers.called(1)
    await tester.send(.checkNumber(1))
    await numbers.called(2)
    numbers.answer(0, with: 2)  // superseded: dropped
    numbers.answer(1, with: 3)
    await tester.receive(.nextRoundFetched(3)) {
      $0.fetching = []
      $0.target = 3
      $0.records = GameRecords(round: 3, bestRecord: 2, currentRecord: 2)
      $0.revision = 1
    }
    await tester.settle()
    await tester.finish()
  }

  @Test("start during a round-win fetch keeps the win (gameStart and checkNumber are separate streams)")
  func startKeepsTheWin() async {
    let (tester, numbers) = tester(records: GameRecords(round: 2, bestRecord: 1, currentRecord: 1))
    await tester.send(.checkNumber(1)) { $0.fetching = [.nextRound] }
    await numbers.called(1)
    await tester.send(.gameStart) { $0.fetching = [.nextRound, .start] }
    await numbers.called(2)
    numbers.answer(0, with: 2)
    await tester.receive(.nextRoundFetched(2)) {
      $0.fetching = [.start]  // the start's fetch is still in flight
      $0.target = 2
      $0.records = GameRecords(round: 3, bestRecord: 2, currentRecord: 2)
      $0.revision = 1
    }
    numbers.answer(1, with: 3)
    await tester.receive(.targetFetched(3)) {
      $0.fetching = []
      $0.target = 3
    }
    await tester.settle()
    await tester.finish()
  }

  @Test("A second start supersedes the first (gameStart is flatMapLatest)")
  func startTwice() async {
    let (tester, numbers) = tester(records: GameRecords())
    await tester.send(.gameStart) { $0.fetching = [.start] }
    await numbers.called(1)
    await tester.send(.gameStart)
    await numbers.called(2)
    numbers.answer(1, with: 2)
    await tester.receive(.targetFetched(2)) {
      $0.fetching = []
      $0.target = 2
    }
    numbers.answer(0, with: 3)  // superseded: dropped
    await tester.finish()
  }
}

/// A repository whose saves fail.
struct FailingRepository: RecordRepository {
  func load() async -> GameRecords { GameRecords() }
  func save(_ records: GameRecords, revision: Int) async throws(FindNumberError) {
    throw .storageFailed("disk full")
  }
}

@Suite("FindNumber: the records machine (run by the game through a Scope)", .testBubble)
struct RecordsMachineTests {
  @Test("Won, lost and reset: the article's rules; every change bumps the revision and is saved")
  func rules() async throws {
    let store = InMemoryKeyValueStore()
    let tester = FeatureTester(
      RecordsMachine(repository: StoredRecordRepository(store: store)),
      initialState: .init(records: GameRecords(round: 2, bestRecord: 2, currentRecord: 2)))
    await tester.send(.roundWon) {
      $0.records = GameRecords(round: 3, bestRecord: 3, currentRecord: 3)
      $0.revision = 1
    }
    await tester.send(.roundLost) {
      $0.records = GameRecords(round: 1, bestRecord: 3, currentRecord: 0)
      $0.revision = 2
    }
    await tester.send(.roundLost)  // nothing changes: no revision, no save
    await tester.send(.reset) {
      $0.records = GameRecords()
      $0.revision = 3
    }
    await tester.settle()
    await tester.finish()
    #expect(await StoredRecordRepository(store: store).load() == GameRecords())
  }

  @Test("A failed save keeps the records in memory and reaches the game as .error")
  func failedSave() async {
    let machine = FindNumberMachine(numbers: ScriptedNumbers([]), records: FailingRepository())
    let tester = FeatureTester(machine, initialState: .init(records: GameRecords(round: 2)))
    await tester.send(.resetStage) {
      $0.records = GameRecords()
      $0.revision = 1
    }
    await tester.receive(.records(.saveFailed(.storageFailed("disk full"))))
    await tester.expectOutput(.error(.storageFailed("disk full")))
    await tester.finish()
  }
}

@Suite("FindNumber: data")
struct FindNumberDataTests {
  @Test("randomnumberapi through the embedded backend: a number in 1...3")
  func embedded() async throws {
    let client = RandomNumberAPIClient(client: EmbeddedBackend(.init(seed: 3)))
    for _ in 0..<20 { #expect((1...3).contains(try await client.nextTarget())) }
  }

  @Test(
    "Stubbed answers map to the article's errors",
    arguments: [
      (HTTPClientStub(json: "[d]"), FindNumberError.decodingError),
      (HTTPClientStub(json: "[]"), .decodingError),
      (HTTPClientStub(json: "[7]"), .decodingError),
      (HTTPClientStub(json: #"{"n": 2}"#), .decodingError),
      (HTTPClientStub(json: "[2]", status: 500), .networkError),
      (HTTPClientStub(json: "[2]", status: 201), .networkError),
      (HTTPClientStub(error: .transport("offline")), .networkError),
    ])
  func stubbed(stub: HTTPClientStub, expected: FindNumberError) async {
    await #expect(throws: expected) { try await RandomNumberAPIClient(client: stub).nextTarget() }
  }

  @Test("A URL that cannot be built is invalidURL")
  func invalidURL() async {
    let client = RandomNumberAPIClient(client: HTTPClientStub(json: "[1]"), host: "")
    await #expect(throws: FindNumberError.invalidURL) { try await client.nextTarget() }
  }

  @Test("The request: min=1, max=3, count=1")
  func request() async throws {
    let stub = HTTPClientStub(json: "[2]")
    #expect(try await RandomNumberAPIClient(client: stub).nextTarget() == 2)
    #expect(
      stub.requests.first?.url.absoluteString == "https://www.randomnumberapi.com/api/v1.0/random?min=1&max=3&count=1")
  }

  @Test("Round defaults to 1 when nothing is stored")
  func defaults() async {
    #expect(await StoredRecordRepository(store: InMemoryKeyValueStore()).load() == GameRecords())
  }

  @Test("Records survive a restart: two store instances over one file")
  func persistence() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("findnumber-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    let numbers = ScriptedNumbers([.success(2), .success(2), .success(3)])
    let first = StoredRecordRepository(store: FileKeyValueStore(url: url))
    let feature = Feature(
      FindNumberMachine(numbers: numbers, records: first),
      initialState: await FindNumberMachine.initialState(from: first),
      counters: LifetimeCounters())
    feature.send(.gameStart)
    await feature.idle()
    feature.send(.checkNumber(2))
    await feature.idle()
    feature.send(.checkNumber(2))
    await feature.idle()
    await feature.finish()
    #expect(await feature.state.records == GameRecords(round: 3, bestRecord: 2, currentRecord: 2))

    let second = StoredRecordRepository(store: FileKeyValueStore(url: url))
    #expect(
      await FindNumberMachine.initialState(from: second).records
        == GameRecords(round: 3, bestRecord: 2, currentRecord: 2))
  }

  @Test("Overlapping saves end on the newest records")
  func overlappingSaves() async throws {
    let store = InMemoryKeyValueStore()
    let repository = StoredRecordRepository(store: store)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for revision in 1...50 {
        group.addTask { try await repository.save(GameRecords(round: revision), revision: revision) }
      }
      try await group.waitForAll()
    }
    #expect(await repository.load().round == 50)
  }
}
