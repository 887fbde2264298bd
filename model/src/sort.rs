//! One sort for every element type.
//!
//! The standard library's sorts are generic: each element type and each comparator
//! sorted is its own copy of the sort's machine code, about 3 to 4 KB in a
//! size-optimized WASM module. The code a WASM package runs sorts with these functions
//! instead: they sort a list of indices with one comparator type, so one copy of the
//! standard sort serves them all, then move the elements into that order. What stays
//! generic is a few lines per element type.
//!
//! The order is the standard library's: [`sort_by`] is stable, as `slice::sort_by` is
//! (`tests` compares them on random lists with equal keys).

use std::cmp::Ordering;

/// Sorts `items` by `compare`, stably: equal elements keep their order.
///
/// ```
/// use neuralis_model::sort::sort_by;
///
/// let mut words = ["pear", "fig", "apple", "kiwi"];
/// sort_by(&mut words, |a, b| a.len().cmp(&b.len()));
/// assert_eq!(words, ["fig", "pear", "kiwi", "apple"]);
/// ```
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_indices(&mut order, &mut |a, b| compare(&items[a], &items[b]));
    permute(&mut order, &mut |a, b| items.swap(a, b));
}

/// Sorts `items` in their own order, stably.
///
/// ```
/// let mut ranges = [(3, 4), (1, 2), (1, 1)];
/// neuralis_model::sort::sort(&mut ranges);
/// assert_eq!(ranges, [(1, 1), (1, 2), (3, 4)]);
/// ```
pub fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// Sorts `items` by the key `key` gives each, stably.
///
/// ```
/// let mut places = ["/a/b", "", "/a"];
/// neuralis_model::sort::sort_by_key(&mut places, |p| p.matches('/').count());
/// assert_eq!(places, ["", "/a", "/a/b"]);
/// ```
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The one instantiation of the standard sort: indices, by a comparator behind `dyn`.
fn sort_indices(order: &mut [usize], compare: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| compare(a, b));
}

/// Puts at each position `i` the element that was at `order[i]`, with `swap`, one cycle
/// of the permutation at a time; `order` ends as the identity.
fn permute(order: &mut [usize], swap: &mut dyn FnMut(usize, usize)) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, equal keys included
        /// (the second member tells equal keys apart).
        #[test]
        fn as_the_standard_stable_sort(keys in proptest::collection::vec(0u8..8, 0..64)) {
            let items: Vec<(u8, usize)> = keys.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
            let mut ours = items.clone();
            super::sort_by_key(&mut ours, |(k, _)| *k);
            let mut std = items.clone();
            std.sort_by_key(|(k, _)| *k);
            prop_assert_eq!(&ours, &std);
            let mut whole = items;
            super::sort(&mut whole);
            std.sort();
            prop_assert_eq!(whole, std);
        }
    }
}
