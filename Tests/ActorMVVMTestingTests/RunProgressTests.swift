import ActorMVVM
import ActorMVVMSupport
import Testing

@testable import ActorMVVMTesting

/// An exploration tags each stubbed call and sleep with how many steps its
/// task has made (``RunProgress``); these pin that a task is one task to
/// it on every thread its code runs on.
@Suite("Run progress: a task's steps are counted as its own wherever its code runs", .testBubble)
struct RunProgressTests {
  @Test("A library task's immediate first slice, run inside its starter's job, counts as the started task")
  func immediateFirstSlice() async throws {
    let progress = RunProgress()
    let preferred = try #require(TaskScope.preferred)
    let starter = progress.step()
    let steps = Locked<[String?]>([])
    let task = try #require(
      TaskScope.task(preferring: preferred, named: "stepper", immediate: true) {
        steps.withLock { $0.append(progress.step()) }  // the first slice: no suspension before it
        await Task.yield()
        steps.withLock { $0.append(progress.step()) }
      })
    await task.value
    #expect(starter == "@1")
    #expect(steps.withLock { $0 } == ["@1", "@2"])
  }

  @Test("A structured child and a Task {} of a library task inherit its task-locals but are not counted as it")
  func childrenCountOnTheirOwn() async throws {
    let progress = RunProgress()
    let preferred = try #require(TaskScope.preferred)
    let task = try #require(
      TaskScope.task(preferring: preferred, named: "parent", immediate: false) { () -> [String?] in
        let first = progress.step()
        async let child = progress.step()
        let inChild = await child
        let unstructured = await Task { progress.step() }.value
        return [first, inChild, unstructured, progress.step()]
      })
    let steps = await task.value
    // The child counts on its own; the `Task {}` prefers no executor, so it
    // runs no job of the bubble's and is not counted at all. Neither is
    // taken for the parent (which would make the last step "@4").
    #expect(steps == ["@1", "@1", nil, "@2"])
  }

  @Test("The entry names only the task its start bound it for")
  func entryOwner() async throws {
    #expect(TaskScope.currentEntry == nil)
    let preferred = try #require(TaskScope.preferred)
    let task = try #require(
      TaskScope.task(preferring: preferred, named: "owner", immediate: true) { () -> [UInt64?] in
        let mine = TaskScope.currentEntry
        async let child = TaskScope.currentEntry
        return [mine, await child, TaskScope.currentEntry]
      })
    let entries = await task.value
    #expect(entries[0] != nil)
    #expect(entries[1] == nil)
    #expect(entries[2] == entries[0])
  }
}
