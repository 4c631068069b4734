import ActorMVVM
import ActorMVVMTesting
import XCTest

@testable import DefaultMainActorApp

/// A service that keeps what it was asked (main-actor, as everything in
/// this target is) and announces nothing.
@MainActor final class RecordingTaskService: TaskServiceType {
  private(set) var deleted: [Int] = []
  let events = AsyncStream<TaskEvent> { _ in }
  func fetchTasks() async -> [TaskItem] { [] }
  func markDone(taskID: Int) async {}
  func delete(taskID: Int) async { deleted.append(taskID) }
}

// The reactor's two XCTest suites, kept as XCTestCases.
nonisolated final class TaskListXCTests: XCTestCase {
  @MainActor func testTheServiceEventsReachTheListFromItsCreation() async {
    await withTestBubble {
      let milk = TaskItem(id: 1, title: "Milk")
      let service = TaskService(tasks: [milk, TaskItem(id: 2, title: "Eggs")])
      let tester = FeatureTester(TaskListMachine(service: service), initialState: .init())
      // transform(mutation:): the list hears the service from its creation.
      await tester.bind(service.events, to: TaskListMachine.Input.taskEvent)
      await tester.send(.refresh) { $0.isRefreshing = true }
      await tester.receive(.setTasks([milk, TaskItem(id: 2, title: "Eggs")])) {
        $0.isRefreshing = false
        $0.tasks = [milk, TaskItem(id: 2, title: "Eggs")]
      }
      // Marking done changes nothing here: the service's event does.
      await tester.send(.toggleDone(at: 0))
      await tester.receive(.taskEvent(.markDone(id: 1))) { $0.tasks[0].isDone = true }
      // Another screen (the editor) saved a new task.
      let bread = TaskItem(id: 3, title: "Bread")
      service.announce(.create(bread))
      await tester.receive(.taskEvent(.create(bread))) { $0.tasks.insert(bread, at: 0) }
      await tester.finish()
    }
  }

  @MainActor func testDeleteAsksTheServiceForTheTaskAtItsPosition() async {
    await withTestBubble {
      let service = RecordingTaskService()
      let initial = TaskListMachine.State(tasks: [TaskItem(id: 7, title: "Call"), TaskItem(id: 8, title: "Mail")])
      let tester = FeatureTester(TaskListMachine(service: service), initialState: initial)
      await tester.send(.delete(at: 1))
      await tester.settle()
      XCTAssertEqual(service.deleted, [8])
      await tester.finish()
    }
  }
}
