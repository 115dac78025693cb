//! Go's `sort.SliceStable` (insertion sort in blocks of 20, then `symMerge`), step for step:
//! strategicpatch sorts with a comparison that is not a strict weak order (an item the order
//! does not know is "less" than anything), so only Go's own sequence of comparisons and swaps
//! gives Go's result.

/// Sorts `data` stably as Go's `sort.SliceStable(data, less)` does; `less` gets the two items.
pub(super) fn slice_stable<T, E>(
    data: &mut [T],
    less: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less)?;
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less)?;
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(data, a, a + block, b, less)?;
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(data, a, m, n, less)?;
        }
        block *= 2;
    }
    Ok(())
}

fn lt<T, E>(
    data: &[T],
    i: usize,
    j: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<bool, E> {
    match (data.get(i), data.get(j)) {
        (Some(x), Some(y)) => less(x, y),
        _ => Ok(false),
    }
}

fn insertion_sort<T, E>(
    data: &mut [T],
    a: usize,
    b: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    for i in a + 1..b {
        let mut j = i;
        while j > a && lt(data, j, j - 1, less)? {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}

fn swap_range<T>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

fn rotate<T>(data: &mut [T], a: usize, m: usize, b: usize) {
    let mut i = m - a;
    let mut j = b - m;
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn sym_merge<T, E>(
    data: &mut [T],
    a: usize,
    m: usize,
    b: usize,
    less: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    if m - a == 1 {
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if lt(data, h, a, less)? {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = a;
        while k + 1 < i {
            data.swap(k, k + 1);
            k += 1;
        }
        return Ok(());
    }
    if b - m == 1 {
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !lt(data, m, h, less)? {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            data.swap(k, k - 1);
            k -= 1;
        }
        return Ok(());
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !lt(data, p - c, c, less)? {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less)?;
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less)?;
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably() {
        let mut v: Vec<(u32, u32)> = (0..100).map(|i| ((i * 37) % 7, i)).collect();
        slice_stable::<_, ()>(&mut v, &mut |a, b| Ok(a.0 < b.0)).unwrap();
        let mut expected: Vec<(u32, u32)> = (0..100).map(|i| ((i * 37) % 7, i)).collect();
        expected.sort_by_key(|x| x.0);
        assert_eq!(v, expected);
    }
}
