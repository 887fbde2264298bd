//! The predicates of section 4 on values, decided once.
//!
//! The `#[tool]` attribute's checks (in `neuralis-syntax`) and the JSON checks (in
//! [`contract`](crate::contract)) both call these and word the answer in their own terms:
//! the attribute's names and spans there, the wire names and JSON pointers here.

use std::collections::HashSet;

use super::block::Category;

/// The most distinct keys `askOnKeys` may list (`askonkeys-too-many`).
pub const ASK_ON_KEYS_MAX: usize = 8;

/// The categories under which `askOnKeys` may gate anything (`askonkeys-posture`): under
/// any other, every call asks already.
pub const ASK_ON_KEYS_CATEGORIES: &[Category] = &[
    Category::Write,
    Category::Execute,
    Category::Network,
    Category::Machine,
];

/// Whether `askOnKeys` can gate anything on a tool (`askonkeys-posture`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Posture {
    /// A destructive tool of a category that asks by key: the list gates.
    Gates,
    /// The tool is not destructive (`destructiveHint` is not `true`).
    NotDestructive,
    /// The category asks on every call anyway.
    AsksAnyway(Category),
    /// A destructive tool with no known category (`category-missing` or
    /// `category-invalid` says so).
    NoCategory,
}

impl Posture {
    /// The posture of a tool that is `destructive` or not, of `category` (`None` when
    /// absent or not a category).
    ///
    /// ```
    /// use neuralis_model::xn::Category;
    /// use neuralis_model::xn::verdict::Posture;
    /// assert_eq!(Posture::of(true, Some(Category::Write)), Posture::Gates);
    /// assert_eq!(Posture::of(false, Some(Category::Write)), Posture::NotDestructive);
    /// assert_eq!(Posture::of(true, Some(Category::Read)), Posture::AsksAnyway(Category::Read));
    /// assert_eq!(Posture::of(true, None), Posture::NoCategory);
    /// ```
    #[must_use]
    pub fn of(destructive: bool, category: Option<Category>) -> Self {
        match category {
            _ if !destructive => Posture::NotDestructive,
            None => Posture::NoCategory,
            Some(c) if ASK_ON_KEYS_CATEGORIES.contains(&c) => Posture::Gates,
            Some(c) => Posture::AsksAnyway(c),
        }
    }
}

/// One pass over a list of strings (`askOnKeys`, `requires.features`,
/// `requires.escalations`): which entries repeat an earlier one, how many are distinct, and
/// which entry is the first past a limit of distinct ones. Entries that are not strings
/// (`None`) are passed over; their positions still count.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// The positions of the entries that repeat an earlier entry.
    pub repeats: Vec<usize>,
    /// How many distinct strings the list holds.
    pub distinct: usize,
    /// The position of the entry that makes the distinct strings one more than the limit.
    pub beyond: Option<usize>,
}

impl Scan {
    /// Scans `entries` against a limit of `max` distinct strings (linear time).
    ///
    /// ```
    /// use neuralis_model::xn::verdict::Scan;
    /// let scan = Scan::of(["a", "b", "a", "c"].map(Some), 2);
    /// assert_eq!(scan.repeats, [2]);
    /// assert_eq!(scan.distinct, 3);
    /// assert_eq!(scan.beyond, Some(3));
    /// ```
    #[must_use]
    pub fn of<'a>(entries: impl IntoIterator<Item = Option<&'a str>>, max: usize) -> Self {
        let mut seen = HashSet::new();
        let mut scan = Scan::default();
        for (i, entry) in entries.into_iter().enumerate() {
            let Some(entry) = entry else { continue };
            if !seen.insert(entry) {
                scan.repeats.push(i);
                continue;
            }
            scan.distinct += 1;
            if scan.distinct == max.saturating_add(1) {
                scan.beyond = Some(i);
            }
        }
        scan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_counts_each_string_once_and_skips_what_is_not_one() {
        let scan = Scan::of([Some("a"), None, Some("a"), Some("b")], ASK_ON_KEYS_MAX);
        assert_eq!(scan.repeats, [2]);
        assert_eq!(scan.distinct, 2);
        assert_eq!(scan.beyond, None);
        let nine: Vec<String> = (0..9).map(|i| i.to_string()).collect();
        let scan = Scan::of(nine.iter().map(|s| Some(s.as_str())), ASK_ON_KEYS_MAX);
        assert_eq!(scan.beyond, Some(8));
    }
}
