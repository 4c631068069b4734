import ActorMVVMNetworking
import ActorMVVMStorage
import ActorMVVMTesting
import EmbeddedBackend
import Foundation
import Testing

@Suite("I/O stress")
struct IOStressTests {
  @Test("1,000 concurrent requests with 20% injected faults: each ends in a value or a typed error")
  func faultsUnderLoad() async throws {
    let backend = EmbeddedBackend(.init(seed: 42))
    await backend.setFaultRate(
      0.2, faults: [.status(500), .malformedBody, .emptyBody, .transport("connection reset"), .status(429)])
    let request = try HTTPRequest(
      host: "api.weatherbit.io", path: "/v2.0/current",
      query: [("key", EmbeddedBackend.demoWeatherbitKey), ("lat", "37.5"), ("lon", "-77.4")])
    let (values, errors) = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<1_000 {
        group.addTask {
          do {
            _ = try await backend.send(request).decode([String: JSONValue].self)
            return true
          } catch {
            return false  // typed: HTTPError is the only thing send/decode throw
          }
        }
      }
      var values = 0
      var errors = 0
      for await ok in group { if ok { values += 1 } else { errors += 1 } }
      return (values, errors)
    }
    #expect(values + errors == 1_000)
    #expect((120...280).contains(errors))  // about 20%, seeded
    #expect(await backend.requestCount(.weather) == 1_000)
  }

  @Test("100 concurrent writers plus readers on one file store: nothing lost")
  func storageUnderLoad() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("stress-\(UUID().uuidString).json")
    defer { try? FileManager.default.removeItem(at: url) }
    let store = FileKeyValueStore(url: url)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<100 {
        group.addTask { try await store.set(index, forKey: "writer-\(index)") }
        group.addTask { _ = try await store.value(Int.self, forKey: "writer-\(index)") }
      }
      try await group.waitForAll()
    }
    let reloaded = FileKeyValueStore(url: url)
    for index in 0..<100 {
      #expect(try await reloaded.value(Int.self, forKey: "writer-\(index)") == index)
    }
  }
}
