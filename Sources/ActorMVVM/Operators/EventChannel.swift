/// The plumbing under the multi-source operators: upstream tasks push events
/// into one bounded buffer; the consuming iterator drains it a batch at a
/// time and keeps all operator state to itself.
///
/// - Order: events from one producer keep their order; producers interleave
///   in lock order.
/// - Backpressure: at most `capacity` buffered events; a producer that finds
///   the buffer full suspends (holding its one event) until the consumer drains.
/// - Termination: `terminate()` (consumer gone or finished) releases every
///   suspended producer with `false` and cancels every upstream task.
@usableFromInline
final class EventChannel<Event: Sendable>: Sendable {
  @usableFromInline
  struct State {
    @usableFromInline var buffer: [Event] = []
    @usableFromInline var consumer: UnsafeContinuation<Void, Never>?
    @usableFromInline var blocked: [(event: Event, producer: UnsafeContinuation<Bool, Never>)] = []
    @usableFromInline var tasks: [UInt64: Task<Void, Never>] = [:]
    @usableFromInline var nextTaskID: UInt64 = 0
    @usableFromInline var terminated = false

    @inlinable init() {}
  }

  @usableFromInline enum SendOutcome { case sent(UnsafeContinuation<Void, Never>?), full, terminated }
  @usableFromInline enum ReceiveOutcome { case filled([UnsafeContinuation<Bool, Never>]), ended, wait }

  @usableFromInline let state = Locked(State())
  @usableFromInline let capacity: Int

  @inlinable init(capacity: Int = 128) { self.capacity = capacity }

  /// Starts an upstream task (unless terminated). Returns its id, for `cancelTask`.
  @inlinable
  @discardableResult
  func spawn(_ body: @escaping @Sendable (EventChannel) async -> Void) -> UInt64? {
    state.withLock { state in
      guard !state.terminated else { return nil }
      state.nextTaskID &+= 1
      let id = state.nextTaskID
      state.tasks[id] = Task { [weak self] in
        guard let self else { return }
        await body(self)
        _ = self.state.withLock { $0.tasks.removeValue(forKey: id) }
      }
      return id
    }
  }

  @inlinable
  func cancelTask(_ id: UInt64) {
    state.withLock { $0.tasks.removeValue(forKey: id) }?.cancel()
  }

  /// Delivers `event`, suspending while the buffer is full. Returns false
  /// once the consumer has terminated the channel: the producer should stop.
  @inlinable
  func send(_ event: Event) async -> Bool {
    let outcome = state.withLock { state -> SendOutcome in
      if state.terminated { return .terminated }
      guard state.buffer.count < capacity else { return .full }
      state.buffer.append(event)
      defer { state.consumer = nil }
      return .sent(state.consumer)
    }
    switch outcome {
    case .sent(let consumer):
      consumer?.resume()
      return true
    case .terminated:
      return false
    case .full:
      return await withUnsafeContinuation { producer in
        let result = state.withLock { state -> SendOutcome in
          if state.terminated { return .terminated }
          if state.buffer.count < capacity {
            state.buffer.append(event)
            defer { state.consumer = nil }
            return .sent(state.consumer)
          }
          state.blocked.append((event, producer))
          return .full
        }
        switch result {
        case .sent(let consumer):
          consumer?.resume()
          producer.resume(returning: true)
        case .terminated: producer.resume(returning: false)
        case .full: break
        }
      }
    }
  }

  /// Swaps the buffered events into `batch` (which must be empty), waiting
  /// for at least one. Returns false once terminated and drained.
  @inlinable
  func receive(into batch: inout [Event]) async -> Bool {
    while true {
      let outcome = state.withLock { state -> ReceiveOutcome in
        if !state.buffer.isEmpty {
          swap(&state.buffer, &batch)
          // Admit blocked producers' events, in order, as space allows.
          var released: [UnsafeContinuation<Bool, Never>] = []
          while !state.blocked.isEmpty, state.buffer.count < capacity {
            let (event, producer) = state.blocked.removeFirst()
            state.buffer.append(event)
            released.append(producer)
          }
          return .filled(released)
        }
        return state.terminated ? .ended : .wait
      }
      switch outcome {
      case .filled(let released):
        for producer in released { producer.resume(returning: true) }
        return true
      case .ended:
        return false
      case .wait:
        await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
          let ready = state.withLock { state -> Bool in
            if !state.buffer.isEmpty || state.terminated { return true }
            state.consumer = consumer
            return false
          }
          if ready { consumer.resume() }
        }
      }
    }
  }

  /// Ends the channel: cancels every upstream task, releases blocked
  /// producers and a waiting consumer. Idempotent.
  @inlinable
  func terminate() {
    let (tasks, blocked, consumer) = state.withLock { state in
      state.terminated = true
      defer {
        state.tasks = [:]
        state.blocked = []
        state.consumer = nil
        state.buffer = []
      }
      return (Array(state.tasks.values), state.blocked.map(\.producer), state.consumer)
    }
    for task in tasks { task.cancel() }
    for producer in blocked { producer.resume(returning: false) }
    consumer?.resume()
  }
}

/// Iterates `sequence` in the calling task, forwarding each element through
/// `wrap`, then reports the end (or the error) through `end`.
@inlinable
func pump<Upstream: AsyncSequence, Event: Sendable>(
  _ sequence: Upstream,
  into channel: EventChannel<Event>,
  wrap: (Upstream.Element) -> Event,
  end: (_ error: (any Error)?) -> Event
) async {
  var iterator = sequence.makeAsyncIterator()
  do {
    while let element = try await iterator.next() {
      guard await channel.send(wrap(element)) else { return }
    }
    _ = await channel.send(end(nil))
  } catch {
    _ = await channel.send(end(error))
  }
}

/// The consumer's side of an `EventChannel`: its drained batch and the
/// cancellation hook, shared by every operator's iterator.
@usableFromInline
struct ChannelReader<Event: Sendable> {
  @usableFromInline let lifetime: ChannelLifetime<Event>
  @usableFromInline var batch = Batch<Event>()

  @inlinable init(capacity: Int = 128) { lifetime = ChannelLifetime(EventChannel(capacity: capacity)) }

  @inlinable var channel: EventChannel<Event> { lifetime.channel }

  /// The next event, or nil when the channel ended or the consumer was cancelled.
  @inlinable
  mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Event? {
    if let event = batch.pop() { return event }
    batch.reset()
    let channel = self.channel
    let received = await withTaskCancellationHandler {
      await channel.receive(into: &batch.items)
    } onCancel: {
      channel.terminate()
    }
    return received ? batch.pop() : nil
  }
}

/// Holds an operator's channel for as long as its iterator lives; when the
/// iterator is dropped the channel terminates, cancelling the upstream tasks.
@usableFromInline
final class ChannelLifetime<Event: Sendable>: Sendable {
  @usableFromInline let channel: EventChannel<Event>
  @inlinable init(_ channel: EventChannel<Event>) { self.channel = channel }
  deinit { channel.terminate() }
}
