import ActorMVVMRuntimeShims
import ActorMVVMSupport

/// A few machine words, each read and written only atomically, in one
/// allocation: the runtime's counters where `Synchronization.Atomic` (iOS
/// 18 / macOS 15) is above the package's floor.
///
/// The words are the elements of a `ManagedBuffer`, whose element storage
/// has a fixed address for the object's life: what a C atomic needs (an
/// `inout` property's address is not promised to be stable). Each
/// operation is a `static inline` C builtin (`ActorMVVMAtomics.h`),
/// compiled into the caller: the same instruction `Atomic` emits.
///
/// `@unchecked Sendable` is safe because nothing touches a word except
/// those atomic operations (the storage is reached only through the
/// methods below, each one builtin on one word; no other file names
/// `AtomicWordsStorage`), and the buffer's header is empty: there is no
/// plain access to race with. (`ManagedBuffer` is never `Sendable`, so the
/// promise is made here, on the only way in, as ``Locked`` does.) `AtomicStressTests`
/// adds from 8 tasks at once under the thread sanitizer
/// (`Scripts/stress.sh`), which reports a plain access racing an atomic one,
/// and checks no addition is lost.
@usableFromInline
struct AtomicWords: @unchecked Sendable {
  @usableFromInline let storage: AtomicWordsStorage

  /// `count` words, all zero.
  @inlinable
  static func make(count: Int) -> AtomicWords {
    let buffer = AtomicWordsStorage.create(minimumCapacity: count) { _ in }
    let storage = unsafeDowncast(buffer, to: AtomicWordsStorage.self)
    // Published to other threads only after this returns (by whatever
    // hands them the object), so plain stores are enough.
    storage.withUnsafeMutablePointerToElements { $0.initialize(repeating: 0, count: count) }
    return AtomicWords(storage: storage)
  }

  @inlinable init(storage: AtomicWordsStorage) { self.storage = storage }

  @inlinable @inline(__always)
  func word<R>(_ index: Int, _ body: (UnsafeMutablePointer<Int>) -> R) -> R {
    storage.withUnsafeMutablePointerToElements { body($0 + index) }
  }

  @inlinable func loadRelaxed(_ index: Int) -> Int { word(index) { actormvvm_word_load_relaxed($0) } }
  @inlinable func loadAcquiring(_ index: Int) -> Int { word(index) { actormvvm_word_load_acquire($0) } }
  @inlinable func loadSequential(_ index: Int) -> Int { word(index) { actormvvm_word_load_seq_cst($0) } }
  @inlinable func storeReleasing(_ index: Int, _ value: Int) { word(index) { actormvvm_word_store_release($0, value) } }
  @inlinable func storeSequential(_ index: Int, _ value: Int) {
    word(index) { actormvvm_word_store_seq_cst($0, value) }
  }

  /// Adds `delta` to word `index`; returns the new value.
  @inlinable @discardableResult
  func addRelaxed(_ index: Int, _ delta: Int) -> Int { word(index) { actormvvm_word_add_relaxed($0, delta) } }
  @inlinable @discardableResult
  func addReleasing(_ index: Int, _ delta: Int) -> Int { word(index) { actormvvm_word_add_release($0, delta) } }
  @inlinable @discardableResult
  func addSequential(_ index: Int, _ delta: Int) -> Int { word(index) { actormvvm_word_add_seq_cst($0, delta) } }
}

/// The storage of ``AtomicWords``: the words as the elements of a buffer.
@usableFromInline
final class AtomicWordsStorage: ManagedBuffer<Void, Int> {}
