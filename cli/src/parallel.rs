//! Work spread over threads, results in input order.

/// `f` of every item, on up to `jobs` scoped threads, in the items' order.
pub(crate) fn map<T: Send, R: Send>(
    items: Vec<T>,
    jobs: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = jobs.max(1).min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let mut chunks: Vec<Vec<T>> = Vec::with_capacity(threads);
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        chunks.push(items.by_ref().take(chunk).collect());
    }
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| scope.spawn(move || chunk.into_iter().map(f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| match h.join() {
                Ok(results) => results,
                // A worker that panicked is a bug; re-raise it here rather than lose results.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    })
}

/// The number of jobs when none is asked for: one per core.
pub(crate) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    #[test]
    fn order_is_kept() {
        for jobs in [1, 2, 3, 8] {
            let out = super::map((0..100).collect(), jobs, |i: i32| i * 2);
            assert_eq!(out, (0..100).map(|i| i * 2).collect::<Vec<_>>());
        }
        assert!(super::map(Vec::<i32>::new(), 4, |i| i).is_empty());
    }
}
