import ActorMVVM

// A ReactorKit task list, ported: its reactor's Action, Mutation, mutate,
// reduce and transform(mutation:) as one state machine, in a target that
// is MainActor by default.

/// A task.
nonisolated struct TaskItem: Equatable, Identifiable {
  let id: Int
  var title: String
  var isDone = false
}

/// What the service announces to every screen (ReactorKit's
/// `taskService.event`, a `PublishSubject`).
nonisolated enum TaskEvent: Equatable {
  case create(TaskItem)
  case update(TaskItem)
  case delete(id: Int)
  case markDone(id: Int)
}

/// The task service, as the reactor's provider has it.
protocol TaskServiceType: Sendable {
  /// Every event from now on.
  var events: AsyncStream<TaskEvent> { get }
  func fetchTasks() async -> [TaskItem]
  func markDone(taskID: Int) async
  func delete(taskID: Int) async
}

/// The app's service: main-actor, its events fanned out to each listener.
final class TaskService: TaskServiceType {
  private var tasks: [TaskItem]
  private var listeners: [AsyncStream<TaskEvent>.Continuation] = []

  init(tasks: [TaskItem]) { self.tasks = tasks }

  var events: AsyncStream<TaskEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: TaskEvent.self)
    listeners.append(continuation)
    return stream
  }

  func fetchTasks() async -> [TaskItem] { tasks }

  func markDone(taskID: Int) async {
    guard let index = tasks.firstIndex(where: { $0.id == taskID }) else { return }
    tasks[index].isDone = true
    announce(.markDone(id: taskID))
  }

  func delete(taskID: Int) async {
    tasks.removeAll { $0.id == taskID }
    announce(.delete(id: taskID))
  }

  /// Announces `event` to every listener (the editor's save calls it too).
  func announce(_ event: TaskEvent) {
    for listener in listeners { listener.yield(event) }
  }
}

/// `TaskListViewReactor` as a machine.
struct TaskListMachine: StateMachine {
  struct State: Equatable {
    var tasks: [TaskItem] = []
    var isRefreshing = false
  }
  enum Input: Equatable {
    // Action
    case refresh
    case toggleDone(at: Int)
    case delete(at: Int)
    // Mutation
    case setTasks([TaskItem])
    // transform(mutation:): the service's events
    case taskEvent(TaskEvent)
  }
  typealias Output = Never

  let service: any TaskServiceType

  func reduce(into state: inout State, _ input: Input) -> Effect<Input, Never> {
    let service = self.service
    switch input {
    case .refresh:
      state.isRefreshing = true
      return .run(id: "refresh") { send in send(.setTasks(await service.fetchTasks())) }
    case .toggleDone(let index):
      guard state.tasks.indices.contains(index) else { return .none }
      let id = state.tasks[index].id
      return .run { _ in await service.markDone(taskID: id) }
    case .delete(let index):
      guard state.tasks.indices.contains(index) else { return .none }
      let id = state.tasks[index].id
      return .run { _ in await service.delete(taskID: id) }
    case .setTasks(let tasks):
      state.isRefreshing = false
      state.tasks = tasks
      return .none
    case .taskEvent(let event):
      state.apply(event)
      return .none
    }
  }
}

nonisolated extension TaskListMachine.State {
  /// The list after `event` (what the reactor's event mutations did).
  mutating func apply(_ event: TaskEvent) {
    switch event {
    case .create(let task):
      tasks.insert(task, at: 0)
    case .update(let task):
      guard let index = tasks.firstIndex(where: { $0.id == task.id }) else { return }
      tasks[index] = task
    case .delete(let id):
      tasks.removeAll { $0.id == id }
    case .markDone(let id):
      guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
      tasks[index].isDone = true
    }
  }
}

extension TaskListMachine {
  /// The screen's feature: it hears the service from its creation, as the
  /// reactor's `transform(mutation:)` did. (An extension of the machine is
  /// nonisolated, as the machine is: this one reads the main-actor service.)
  @MainActor static func feature(service: TaskService) -> Feature<TaskListMachine> {
    let feature = Feature(TaskListMachine(service: service), initialState: .init())
    feature.bind(service.events, to: Input.taskEvent)
    return feature
  }
}
