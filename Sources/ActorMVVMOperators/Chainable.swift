import ActorMVVM

// Every sequence of this module chains ActorMVVM's inline `map`, `filter`
// and `compactMap` (see `ChainableAsyncSequence`).
extension AsyncArrayCollectionSequence: ChainableAsyncSequence {}
extension AsyncCatchSequence: ChainableAsyncSequence {}
extension AsyncCombineLatest2Sequence: ChainableAsyncSequence {}
extension AsyncCombineLatest3Sequence: ChainableAsyncSequence {}
extension AsyncCombineLatest4Sequence: ChainableAsyncSequence {}
extension AsyncDebounceSequence: ChainableAsyncSequence {}
extension AsyncFlatMapLatestSequence: ChainableAsyncSequence {}
extension AsyncFlatMapSequence: ChainableAsyncSequence {}
extension AsyncMerge2Sequence: ChainableAsyncSequence {}
extension AsyncMergeCollectionSequence: ChainableAsyncSequence {}
extension AsyncNeverFailingSequence: ChainableAsyncSequence {}
extension AsyncPrependSequence: ChainableAsyncSequence {}
extension AsyncRemoveDuplicatesSequence: ChainableAsyncSequence {}
extension AsyncRetrySequence: ChainableAsyncSequence {}
extension AsyncScanSequence: ChainableAsyncSequence {}
extension AsyncShareSequence: ChainableAsyncSequence {}
extension AsyncThrottleSequence: ChainableAsyncSequence {}
extension AsyncTimeoutSequence: ChainableAsyncSequence {}
extension AsyncTimeoutSwitchSequence: ChainableAsyncSequence {}
extension AsyncWithLatestFromSequence: ChainableAsyncSequence {}
extension AsyncZip2Sequence: ChainableAsyncSequence {}
