//! Work spread over threads, results in input order.

/// The most threads one `map` starts, whatever `--jobs` asks: more than this many cores gives
/// nothing on this work, and a thread per document of a large stream exhausts the process.
pub(crate) const MAX_JOBS: usize = 64;

/// `f` of every item, on up to `jobs` scoped threads (at most [`MAX_JOBS`]), in the items'
/// order. A thread that cannot be started leaves its share to the calling thread.
pub(crate) fn map<T: Send, R: Send>(
    items: Vec<T>,
    jobs: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let threads = jobs.clamp(1, MAX_JOBS).min(items.len());
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
        let started: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let (tx, rx) = std::sync::mpsc::channel::<Vec<T>>();
                let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                    rx.recv()
                        .map(|chunk| chunk.into_iter().map(f).collect::<Vec<R>>())
                        .unwrap_or_default()
                });
                match spawned {
                    Ok(handle) => match tx.send(chunk) {
                        Ok(()) => Share::Thread(handle),
                        // The thread is gone already; its share comes back with the error.
                        Err(std::sync::mpsc::SendError(chunk)) => Share::Here(chunk),
                    },
                    Err(_) => Share::Here(chunk),
                }
            })
            .collect();
        started
            .into_iter()
            .flat_map(|share| match share {
                Share::Thread(handle) => match handle.join() {
                    Ok(results) => results,
                    // A worker that panicked is a bug; re-raise it here rather than lose results.
                    Err(panic) => std::panic::resume_unwind(panic),
                },
                Share::Here(chunk) => chunk.into_iter().map(f).collect(),
            })
            .collect()
    })
}

/// Where one share of the items is worked on.
enum Share<'scope, T, R> {
    Thread(std::thread::ScopedJoinHandle<'scope, Vec<R>>),
    Here(Vec<T>),
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

    #[test]
    fn absurd_job_counts_do_not_exhaust_threads() {
        // `-j 1000000` over 100k documents once asked for 100k threads and died.
        let items: Vec<u32> = (0..100_000).collect();
        let out = super::map(items, 1_000_000, |i| i + 1);
        assert_eq!(out.len(), 100_000);
        assert!(out.iter().enumerate().all(|(i, v)| *v as usize == i + 1));
    }
}
