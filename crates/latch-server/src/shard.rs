//! Per-thread shards: state that every request touches (metrics, the upstream
//! HTTP client's connection pool) is split by worker thread, so that cores
//! serving requests side by side never wait on one lock or bounce one cache line.

use std::sync::atomic::{AtomicUsize, Ordering};

/// The calling thread's number, given in the order threads first ask (0, 1, 2…);
/// `% shards` picks its shard. Stable for the thread's life.
pub(crate) fn thread_index() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static INDEX: usize = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    INDEX.with(|index| *index)
}

/// How many shards to make for work spread over the machine's cores: one per
/// core (a worker thread each by default), at least 1, at most `cap`.
pub(crate) fn per_core(cap: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .clamp(1, cap.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_get_distinct_stable_indices() {
        let mine = thread_index();
        assert_eq!(thread_index(), mine);
        let other = std::thread::spawn(thread_index).join().unwrap();
        assert_ne!(other, mine);
        assert!((1..=4).contains(&per_core(4)));
    }
}
