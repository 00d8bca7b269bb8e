//! Wallet catalogue rules (behaviour 2.4 "Wallet catalogue", behaviour 6.12 `GET /getWallets`):
//! how a search ranks wallets.

/// How well a wallet name answers a search; smaller is better.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MatchRank {
    /// The name is the query (ignoring case and surrounding spaces).
    Exact,
    /// The name starts with the query.
    Prefix,
    /// A word of the name starts with the query.
    WordPrefix,
    /// The query appears inside the name.
    Contains,
    /// The query's characters appear in the name in order (typo-tolerant: `mtmsk` finds MetaMask).
    Fuzzy,
}

/// Ranks `name` for `query`, or `None` when it does not match at all.
/// Comparison ignores case and spaces in the query's edges; an empty query matches nothing.
pub fn rank_match(query: &str, name: &str) -> Option<MatchRank> {
    let query = query.trim().to_lowercase();
    if query.is_empty() {
        return None;
    }
    let name = name.trim().to_lowercase();
    if name == query {
        Some(MatchRank::Exact)
    } else if name.starts_with(&query) {
        Some(MatchRank::Prefix)
    } else if name
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| word.starts_with(&query))
    {
        Some(MatchRank::WordPrefix)
    } else if name.contains(&query) {
        Some(MatchRank::Contains)
    } else {
        let mut rest = name.chars();
        let in_order = query
            .chars()
            .filter(|c| !c.is_whitespace())
            .all(|q| rest.any(|n| n == q));
        in_order.then_some(MatchRank::Fuzzy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Issue 7: "search (ranked: exact name, prefix, then fuzzy)".
    #[test]
    fn ranks() {
        assert_eq!(rank_match("metamask", "MetaMask"), Some(MatchRank::Exact));
        assert_eq!(rank_match(" Meta ", "MetaMask"), Some(MatchRank::Prefix));
        assert_eq!(rank_match("wallet", "Coinbase Wallet"), Some(MatchRank::WordPrefix));
        assert_eq!(rank_match("base", "Coinbase Wallet"), Some(MatchRank::Contains));
        assert_eq!(rank_match("mtmsk", "MetaMask"), Some(MatchRank::Fuzzy));
        assert_eq!(rank_match("zz", "MetaMask"), None);
        assert_eq!(rank_match("", "MetaMask"), None);
        let mut names = ["Coinbase Wallet", "Rainbow", "Rabby Wallet", "rabby"];
        names.sort_by_key(|n| rank_match("rabby", n).map_or((1, None), |r| (0, Some(r))));
        assert_eq!(names[..2], ["rabby", "Rabby Wallet"]);
    }

    proptest! {
        #[test]
        fn never_panics_and_a_name_finds_itself(q in "\\PC*", name in "[a-zA-Z0-9 ]{1,30}") {
            let _ = rank_match(&q, &name);
            if !name.trim().is_empty() {
                prop_assert_eq!(rank_match(&name, &name), Some(MatchRank::Exact));
            }
        }
    }
}
