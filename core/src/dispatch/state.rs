//! [`StateMap`]: the package's state, one value per type, shared by every call.
//!
//! The rule for `T` and `Arc<T>`: a value is found by its type through at most one
//! `Arc`. Registering a `T` answers both `state::<T>()` and `state::<Arc<T>>()`;
//! registering an `Arc<T>` answers the same two (the `Arc` is shared, not wrapped again).
//! `T` and `Arc<T>` are therefore one slot: registering both, or one of them twice, is a
//! [`BuildProblem::DuplicateState`](super::BuildProblem::DuplicateState) when the package
//! is built.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// Every entry under the key of type `X` holds an `Arc<X>`.
type Erased = Arc<dyn Any + Send + Sync>;

/// The package's state: at most one value per type, each behind an [`Arc`] and shared by
/// every call (see [`PackageBuilder::state`](super::PackageBuilder::state) and
/// [`ToolContext::state`](super::ToolContext::state)).
///
/// ```
/// use std::sync::Arc;
/// use neuralis_core::dispatch::StateMap;
///
/// struct Db(&'static str);
/// struct Cache(u32);
/// let mut state = StateMap::new();
/// state.insert(Db("primary")).expect("the first `Db`");
/// state.insert(Arc::new(Cache(7))).expect("the first `Cache`");
/// // One `Arc` either way: a `Db` is found as `Arc<Db>`, an `Arc<Cache>` as `Cache`.
/// assert_eq!(state.get::<Arc<Db>>().map(|d| d.0), Some("primary"));
/// assert_eq!(state.get::<Cache>().map(|c| c.0), Some(7));
/// // `T` and `Arc<T>` are one slot.
/// assert!(state.insert(Arc::new(Db("replica"))).is_err());
/// ```
#[derive(Clone, Default)]
pub struct StateMap {
    entries: HashMap<TypeId, (Erased, &'static str)>,
}

/// A second value for a type [`StateMap`] already holds (or holds behind an `Arc`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateState {
    /// The type registered twice, as `std::any::type_name` gives it.
    pub type_name: &'static str,
}

impl fmt::Display for DuplicateState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the state `{}` is registered twice (a value and an `Arc` of it are one slot); register it once",
            self.type_name
        )
    }
}

impl std::error::Error for DuplicateState {}

impl StateMap {
    /// An empty map.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `value` under its type `T` (and `Arc<T>`).
    ///
    /// # Errors
    ///
    /// [`DuplicateState`] when the map already answers for `T` or `Arc<T>`; the map is
    /// left as it was.
    pub fn insert<T: Any + Send + Sync>(&mut self, value: T) -> Result<(), DuplicateState> {
        self.insert_arc(Arc::new(value))
    }

    /// Adds a shared value, the same as [`insert`](Self::insert) of the `T` it points to.
    ///
    /// # Errors
    ///
    /// As [`insert`](Self::insert).
    pub fn insert_arc<T: Any + Send + Sync>(
        &mut self,
        value: Arc<T>,
    ) -> Result<(), DuplicateState> {
        let (plain, shared) = (TypeId::of::<T>(), TypeId::of::<Arc<T>>());
        if self.entries.contains_key(&plain) || self.entries.contains_key(&shared) {
            return Err(DuplicateState {
                type_name: type_name::<T>(),
            });
        }
        let name = type_name::<T>();
        let outer: Erased = Arc::new(Arc::clone(&value));
        self.entries.insert(shared, (outer, name));
        self.entries.insert(plain, (value, name));
        Ok(())
    }

    /// Adds or replaces the value of type `T` (for [`ToolContext::with_state`](super::ToolContext::with_state)).
    pub(super) fn replace_arc<T: Any + Send + Sync>(&mut self, value: Arc<T>) {
        self.entries.remove(&TypeId::of::<T>());
        self.entries.remove(&TypeId::of::<Arc<T>>());
        let _ = self.insert_arc(value);
    }

    /// The value of type `T`: registered as a `T`, or as an `Arc<T>` (when `T` is itself
    /// an `Arc<U>`, the `Arc` of a registered `U`).
    #[must_use]
    pub fn get<T: Any + Send + Sync>(&self) -> Option<&T> {
        if let Some((value, _)) = self.entries.get(&TypeId::of::<T>()) {
            return value.downcast_ref::<T>();
        }
        // An `Arc<T>` was registered: its entry holds an `Arc<Arc<T>>`.
        let (value, _) = self.entries.get(&TypeId::of::<Arc<T>>())?;
        value.downcast_ref::<Arc<T>>().map(|shared| &**shared)
    }

    /// Whether [`get::<T>`](Self::get) finds a value.
    #[must_use]
    pub fn contains<T: Any + Send + Sync>(&self) -> bool {
        self.get::<T>().is_some()
    }

    /// Whether the map is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The types registered, sorted, each once.
    #[must_use]
    pub fn type_names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self.entries.values().map(|(_, n)| *n).collect();
        neuralis_model::sort::sort(&mut names);
        names.dedup();
        names
    }
}

/// The service a handler is a method of: the `Self` type of a `#[neuralis::tools]` impl,
/// which the package must hold in its [`StateMap`] (see
/// [`PackageBuilder::service`](super::PackageBuilder::service)). A package whose handler
/// needs a service it was not given fails to build
/// ([`BuildProblem::NoService`](super::BuildProblem::NoService)), so a call never finds
/// it missing.
///
/// ```
/// use neuralis_core::dispatch::{ServiceType, StateMap};
///
/// struct Tracker;
/// const TRACKER: ServiceType = ServiceType::of::<Tracker>("Tracker");
/// let mut state = StateMap::new();
/// assert!(!TRACKER.is_registered(&state));
/// state.insert(std::sync::Arc::new(Tracker)).expect("the first");
/// assert!(TRACKER.is_registered(&state));
/// ```
#[derive(Clone, Copy)]
pub struct ServiceType {
    /// The type as written on the impl (`Tracker`).
    pub name: &'static str,
    /// Whether a [`StateMap`] holds it.
    pub registered: fn(&StateMap) -> bool,
}

impl ServiceType {
    /// The service `T`, named `name` in messages.
    #[must_use]
    pub const fn of<T: Any + Send + Sync>(name: &'static str) -> Self {
        Self {
            name,
            registered: StateMap::contains::<T>,
        }
    }

    /// Whether `state` holds the service.
    #[must_use]
    pub fn is_registered(&self, state: &StateMap) -> bool {
        (self.registered)(state)
    }
}

impl fmt::Debug for ServiceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("ServiceType").field(&self.name).finish()
    }
}

impl fmt::Debug for StateMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.type_names()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Db(u8);
    #[derive(Debug, PartialEq)]
    struct Other;

    #[test]
    fn a_value_answers_for_itself_and_its_arc() {
        let mut m = StateMap::new();
        m.insert(Db(1)).expect("first");
        assert_eq!(m.get::<Db>(), Some(&Db(1)));
        assert_eq!(m.get::<Arc<Db>>().map(|a| a.0), Some(1));
        assert!(m.get::<Other>().is_none());
        assert!(m.get::<Arc<Arc<Db>>>().is_none());
    }

    #[test]
    fn an_arc_answers_for_itself_and_its_target_and_is_shared() {
        let shared = Arc::new(Db(2));
        let mut m = StateMap::new();
        m.insert(Arc::clone(&shared)).expect("first");
        assert_eq!(m.get::<Db>(), Some(&Db(2)));
        let got = m.get::<Arc<Db>>().expect("the arc");
        assert!(Arc::ptr_eq(got, &shared), "the same allocation, not a copy");
        let mut n = StateMap::new();
        n.insert_arc(Arc::clone(&shared)).expect("first");
        assert!(std::ptr::eq(n.get::<Db>().expect("db"), &*shared));
    }

    #[test]
    fn a_value_and_its_arc_are_one_slot() {
        for second in [0, 1, 2] {
            let mut m = StateMap::new();
            m.insert(Db(1)).expect("first");
            let again = match second {
                0 => m.insert(Db(2)),
                1 => m.insert(Arc::new(Db(2))),
                _ => m.insert_arc(Arc::new(Db(2))),
            };
            let e = again.expect_err("a second `Db`");
            assert!(e.type_name.contains("Db"), "{e}");
            assert_eq!(m.get::<Db>(), Some(&Db(1)), "left as it was");
        }
        let mut m = StateMap::new();
        m.insert(Arc::new(Db(1))).expect("first");
        assert!(m.insert(Db(2)).is_err());
        m.insert(Other).expect("another type");
        assert_eq!(m.type_names().len(), 2, "{m:?}");
    }

    #[test]
    fn replace_overwrites() {
        let mut m = StateMap::new();
        m.insert(Db(1)).expect("first");
        m.replace_arc(Arc::new(Db(3)));
        assert_eq!(m.get::<Db>(), Some(&Db(3)));
    }
}
