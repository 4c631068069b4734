import ActorMVVM
import ActorMVVMSupport
import Foundation
import Testing

@testable import ActorMVVMStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Data directory faults")
struct DataDirectoryFaultTests {
  let directory: URL
  var file: URL { directory.appendingPathComponent("store.json") }

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("actormvvm-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  @Test("Temporary files a crash left behind are removed when the store loads; their secrets go with them")
  func staleTemporaryFilesRemoved() async throws {
    let stale = directory.appendingPathComponent(".store.json.\(UUID().uuidString).tmp")
    try Data(#"{"interview.session": "tokens"}"#.utf8).write(to: stale)
    let unrelated = directory.appendingPathComponent(".other.json.\(UUID().uuidString).tmp")
    try Data("{}".utf8).write(to: unrelated)
    let store = FileKeyValueStore(url: file)
    #expect(try await store.value(Int.self, forKey: "Round") == nil)
    #expect(!FileManager.default.fileExists(atPath: stale.path))
    #expect(FileManager.default.fileExists(atPath: unrelated.path))  // another store's
  }

  @Test("A crash while the temporary file is written leaves nothing on disk: it has no name until it is whole")
  func namelessWhileWriting() async throws {
    let store = FileKeyValueStore(url: file)
    try await store.set(["interview.session": .string("old tokens")])
    await store.setFailBeforeNaming(true)  // as a crash while writing would
    await #expect(throws: StorageError.self) { try await store.set(["interview.session": .string("new tokens")]) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["store.json"])
    #expect(try await FileKeyValueStore(url: file).value(String.self, forKey: "interview.session") == "old tokens")
  }

  @Test("A temporary file is created 0600")
  func temporaryFilesArePrivate() async throws {
    let store = FileKeyValueStore(url: file)
    await store.setFailBeforeRename(true)  // leaves the temporary file, as a crash would
    await #expect(throws: StorageError.self) { try await store.set(1, forKey: "Round") }
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".tmp") }
    #expect(names.count == 1)
    let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(names[0]).path)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
  }

  @Test("A file of the wrong shape is set aside with a warning, like a corrupt one")
  func wrongShapeSetAside() async throws {
    try Data(#"{"Round": "three"}"#.utf8).write(to: file)
    let store = FileKeyValueStore(url: file) { $0.shapeProblem([("Round", Int.self)]) }
    #expect(try await store.value(Int.self, forKey: "Round") == nil)
    let warnings = await store.takeWarnings()
    #expect(
      warnings == [
        .wrongShape(path: file.path, movedTo: file.path + ".corrupt", reason: "\"Round\" is not a Int")
      ])
    #expect(FileManager.default.fileExists(atPath: file.path + ".corrupt"))
  }

  @Test("Every failed write is reported, then rethrown; nothing is stored")
  func failedWritesReported() async throws {
    let file = FileKeyValueStore(url: self.file)
    await file.setFailBeforeRename(true)
    let reports = Reports()
    let store = ReportingKeyValueStore(file) { reports.append($0) }
    await #expect(throws: StorageError.self) { try await store.set(2, forKey: "Round") }
    try? await store.set(["BestRecord": .number(1)])
    try? await store.removeValue(forKey: "Round")  // nothing stored, nothing written, nothing to report
    #expect(reports.all.count == 2)
    #expect(try await FileKeyValueStore(url: self.file).value(Int.self, forKey: "Round") == nil)
    #expect(reports.all.first?.description.hasPrefix("not saved: cannot write \(self.file.path)") == true)
  }

  @Test("Writing through a symbolic link is refused; its target is untouched")
  func symlinkRefused() throws {
    let target = directory.appendingPathComponent("precious.txt")
    try Data("keep me".utf8).write(to: target)
    let link = directory.appendingPathComponent("link.txt")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    #expect(throws: StorageError.self) { _ = try PrivateFile.openForWriting(link) }
    #expect(try String(contentsOf: target, encoding: .utf8) == "keep me")
  }

  @Test("The data directory lock: a second holder is refused, naming the first")
  func lockInOneProcess() throws {
    // Released when its holder exits is tested with two processes
    // (DataDirectoryTests.oneProcessPerDirectory): in this process a test
    // spawning a child at the wrong moment holds a copy of the descriptor.
    let first = try DataDirectoryLock.acquire(directory: directory.path)
    // flock locks belong to the open file description: a second open in
    // this process conflicts as another process would.
    #expect(throws: DataDirectoryLockError.held(path: first.path, pid: getpid())) {
      _ = try DataDirectoryLock.acquire(directory: directory.path)
    }
    withExtendedLifetime(first) {}
  }
}

/// Warnings collected from any task.
final class Reports: Sendable {
  private let storage = Locked<[StorageWarning]>([])
  func append(_ warning: StorageWarning) { storage.withLock { $0.append(warning) } }
  var all: [StorageWarning] { storage.withLock { $0 } }
}
