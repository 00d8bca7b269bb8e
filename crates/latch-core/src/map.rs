//! [`Map`]: the engine's one map type, a vector kept sorted by key.
//!
//! The engine's maps hold a handful of entries (namespaces, sessions, keys,
//! expiries), where a B-tree buys nothing, and each `BTreeMap<K, V>` the
//! engine used compiled its own node-balancing code into the browser module
//! (about 60 kB of its 505 kB before gzip). A sorted vector needs a binary
//! search and `Vec`'s insert and remove. It iterates in key order and
//! is written and read as a JSON object (through `crate::json`), as a
//! `BTreeMap` was, so stored state and wire formats are unchanged.

use std::borrow::Borrow;
use std::fmt;

/// A map from `K` to `V`, in key order.
#[derive(Clone, PartialEq, Eq)]
pub struct Map<K, V>(Vec<(K, V)>);

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Map<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.0.iter().map(|(k, v)| (k, v))).finish()
    }
}

impl<K: Ord, V> Map<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value under `key`.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.position(key).ok().map(|i| &self.0[i].1)
    }

    /// The value under `key`, to change.
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.position(key).ok().map(|i| &mut self.0[i].1)
    }

    /// Whether `key` has a value.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.position(key).is_ok()
    }

    /// Puts `value` under `key`; the value it replaces, if any.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.position(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// The value under `key`, inserting `V::default()` first when there is none.
    pub fn get_or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let i = match self.position(&key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, V::default()));
                i
            }
        };
        &mut self.0[i].1
    }

    /// Takes out the value under `key`.
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.position(key).ok().map(|i| self.0.remove(i).1)
    }

    /// A map of `entries` in any order, later entries replacing earlier ones
    /// under the same key: a stable sort, O(n log n). (Inserting one by one,
    /// as `collect` does, shifts the vector's tail for each entry that comes
    /// out of order: quadratic for a large object read from the network.)
    pub fn from_entries(entries: Vec<(K, V)>) -> Self {
        if entries.windows(2).all(|pair| pair[0].0 < pair[1].0) {
            return Self(entries);
        }
        // Stable, so of equal keys the last stays last and is the one kept.
        let mut kept: Vec<(K, V)> = Vec::with_capacity(entries.len());
        for entry in merge_sort(entries) {
            match kept.last_mut() {
                Some(last) if last.0 == entry.0 => *last = entry,
                _ => kept.push(entry),
            }
        }
        Self(kept)
    }

    /// The same keys in the same order, each value converted by `convert`;
    /// its first error if any.
    pub fn try_map_values<W, E>(&self, mut convert: impl FnMut(&K, &V) -> Result<W, E>) -> Result<Map<K, W>, E>
    where
        K: Clone,
    {
        let mut converted = Vec::with_capacity(self.0.len());
        for (key, value) in &self.0 {
            converted.push((key.clone(), convert(key, value)?));
        }
        Ok(Map(converted))
    }

    /// Keeps only the entries `keep` accepts.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }
}

/// `entries` in key order, equal keys in their order: a top-down merge sort.
/// The standard library's stable sort is several kB of the browser module,
/// for the one place (objects read out of order) that sorts.
fn merge_sort<K: Ord, V>(mut entries: Vec<(K, V)>) -> Vec<(K, V)> {
    if entries.len() < 2 {
        return entries;
    }
    let right = merge_sort(entries.split_off(entries.len() / 2));
    let left = merge_sort(entries);
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    loop {
        let from_left = match (left.peek(), right.peek()) {
            (Some(l), Some(r)) => l.0 <= r.0,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return merged,
        };
        merged.extend(if from_left { left.next() } else { right.next() });
    }
}

impl<K, V> Map<K, V> {
    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The entries, in key order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (&K, &V)> + ExactSizeIterator {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.0.iter().map(|(k, _)| k)
    }

    /// The values, in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.0.iter().map(|(_, v)| v)
    }
}

impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for Map<K, V> {
    type Output = V;
    /// The value under `key`; panics when there is none, as a `BTreeMap` does.
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry under this key")
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for Map<K, V> {
    /// Later entries replace earlier ones under the same key, as in a `BTreeMap`.
    /// One insert per entry: cheap for the few or already ordered entries the
    /// engine collects (a sort would be compiled once per key and value type);
    /// [`Map::from_entries`] for many in any order.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        let mut map = Self::new();
        for (k, v) in entries {
            map.insert(k, v);
        }
        map
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for Map<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u8, u16),
        Remove(u8),
        Retain(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (any::<u8>(), any::<u16>()).prop_map(|(k, v)| Op::Insert(k, v)),
            any::<u8>().prop_map(Op::Remove),
            any::<u8>().prop_map(Op::Retain),
        ]
    }

    proptest! {
        /// Any sequence of changes leaves it holding what a `BTreeMap` would, in the same order.
        #[test]
        fn behaves_as_a_btree_map(ops in prop::collection::vec(op(), 0..200)) {
            let mut ours = Map::new();
            let mut model = BTreeMap::new();
            for op in ops {
                match op {
                    Op::Insert(k, v) => prop_assert_eq!(ours.insert(k, v), model.insert(k, v)),
                    Op::Remove(k) => prop_assert_eq!(ours.remove(&k), model.remove(&k)),
                    Op::Retain(below) => {
                        ours.retain(|k, _| *k < below);
                        model.retain(|k, _| *k < below);
                    }
                }
                prop_assert_eq!(ours.len(), model.len());
            }
            prop_assert!(ours.iter().eq(model.iter()));
            for k in 0..=u8::MAX {
                prop_assert_eq!(ours.get(&k), model.get(&k));
            }
        }

        /// Built from entries in any order, it holds what a `BTreeMap` collected from them would.
        #[test]
        fn from_entries_as_a_btree_map(entries in prop::collection::vec((any::<u8>(), any::<u16>()), 0..300)) {
            let ours = Map::from_entries(entries.clone());
            let model: BTreeMap<_, _> = entries.into_iter().collect();
            prop_assert!(ours.iter().eq(model.iter()));
        }

        /// It writes JSON as a `BTreeMap<String, _>` does, and reads back what it wrote.
        #[test]
        fn json_as_a_btree_map(entries in prop::collection::btree_map("[a-z:0-9]{0,12}", any::<u64>(), 0..20)) {
            let ours: Map<String, u64> = entries.clone().into_iter().collect();
            let text = crate::json::to_json(&ours);
            prop_assert_eq!(&text, &serde_json::to_string(&entries).unwrap());
            prop_assert_eq!(crate::json::from_json::<Map<String, u64>>(&text).unwrap(), ours);
        }
    }

    #[test]
    fn a_repeated_key_keeps_the_last_value() {
        let map: Map<String, u64> = crate::json::from_json(r#"{"b":1,"a":2,"b":3}"#).unwrap();
        assert_eq!(
            map.iter().collect::<Vec<_>>(),
            [(&"a".to_owned(), &2), (&"b".to_owned(), &3)]
        );
        assert!(crate::json::from_json::<Map<String, u64>>("[1]").is_err());
    }
}
