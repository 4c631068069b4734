import Foundation
import Testing

@testable import ActorMVVMStorage

@Suite("FileKeyValueStore")
struct FileKeyValueStoreTests {
  let directory: URL
  var file: URL { directory.appendingPathComponent("records.json") }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("actormvvm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  @Test("Values survive a restart: two store instances over one file")
  func survivesRestart() async throws {
    let first = FileKeyValueStore(url: file)
    try await first.set(3, forKey: "Round")
    try await first.set(["BestRecord": .number(5), "CurrentRecord": .number(2)])
    let second = FileKeyValueStore(url: file)
    #expect(try await second.value(Int.self, forKey: "Round") == 3)
    #expect(try await second.value(Int.self, forKey: "BestRecord") == 5)
    #expect(try await second.value(Int.self, forKey: "CurrentRecord") == 2)
    #expect(try await second.value(Int.self, forKey: "Missing") == nil)
    #expect(await second.value(Int.self, forKey: "Missing", default: 1) == 1)
  }

  @Test("100 concurrent writers lose nothing")
  func concurrentWriters() async throws {
    let store = FileKeyValueStore(url: file)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask { try await store.set(index, forKey: "key-\(index)") }
      }
      try await group.waitForAll()
    }
    let reloaded = FileKeyValueStore(url: file)
    for index in 0..<100 {
      #expect(try await reloaded.value(Int.self, forKey: "key-\(index)") == index)
    }
  }

  @Test("A write interrupted before the rename leaves the old value readable")
  func interruptedWrite() async throws {
    let store = FileKeyValueStore(url: file)
    try await store.set(1, forKey: "Round")
    await store.setFailBeforeRename(true)
    await #expect(throws: StorageError.self) { try await store.set(2, forKey: "Round") }
    let reloaded = FileKeyValueStore(url: file)
    #expect(try await reloaded.value(Int.self, forKey: "Round") == 1)
    // The failed write did not change the store's view either.
    #expect(try await store.value(Int.self, forKey: "Round") == 1)
  }

  @Test("A corrupt file → defaults, a warning, and the file kept aside, never overwritten")
  func corruptFile() async throws {
    let garbage = Data("{\"Round\": 4, oops".utf8)
    try garbage.write(to: file)
    let store = FileKeyValueStore(url: file)
    #expect(try await store.value(Int.self, forKey: "Round") == nil)
    let warnings = await store.takeWarnings()
    let aside = file.appendingPathExtension("corrupt")
    #expect(warnings == [.corruptFile(path: file.path, movedTo: aside.path)])
    #expect(try Data(contentsOf: aside) == garbage)
    try await store.set(1, forKey: "Round")
    #expect(try Data(contentsOf: aside) == garbage)
    #expect(await store.takeWarnings().isEmpty)

    // A second corruption is kept beside the first, not over it.
    try garbage.write(to: file)
    let again = FileKeyValueStore(url: file)
    _ = try await again.value(Int.self, forKey: "Round")
    #expect(
      await again.takeWarnings() == [
        .corruptFile(path: file.path, movedTo: file.appendingPathExtension("corrupt-2").path)
      ])
  }

  @Test("A value of the wrong type is a typed error, not a crash")
  func typeMismatch() async throws {
    let store = FileKeyValueStore(url: file)
    try await store.set("three", forKey: "Round")
    await #expect(throws: StorageError.typeMismatch(key: "Round", expected: "Int")) {
      try await store.value(Int.self, forKey: "Round")
    }
    #expect(await store.value(Int.self, forKey: "Round", default: 1) == 1)
  }

  @Test("removeValue persists")
  func remove() async throws {
    let store = FileKeyValueStore(url: file)
    try await store.set(true, forKey: "flag")
    try await store.removeValue(forKey: "flag")
    #expect(try await FileKeyValueStore(url: file).value(Bool.self, forKey: "flag") == nil)
  }
}

@Suite("InMemoryKeyValueStore")
struct InMemoryKeyValueStoreTests {
  @Test("Stores and reads Codable values")
  func roundTrip() async throws {
    struct Record: Codable, Sendable, Equatable {
      let name: String
      let score: Int
    }
    let store = InMemoryKeyValueStore()
    try await store.set(Record(name: "kim", score: 3), forKey: "record")
    #expect(try await store.value(Record.self, forKey: "record") == Record(name: "kim", score: 3))
  }
}
