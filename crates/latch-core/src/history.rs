//! The Activity tab's transaction history (behaviour 1.17 "Transaction history is
//! grouped by year, then month…", behaviour 5.13 "History: a transaction is dropped if all
//! transfers are spam-flagged NFTs; only those matching the connected chain
//! are kept").
//!
//! The rules read only the fields modelled here; callers keep their full
//! records and pass anything that [`Borrow`]s a [`Transaction`], so what they
//! get back are their own records, untouched and in their order.

use std::borrow::Borrow;
use std::collections::BTreeMap;

use serde::Deserialize;

use crate::caip::CaipNetworkId;
use crate::format::{parse_iso_date, YearMonth};
use crate::{Error, Result};

/// English month names; the UI may translate from `year` and `month` instead.
const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The milliseconds in a minute, for UTC offsets given in minutes.
const MINUTE_MS: i64 = 60_000;
/// UTC offsets beyond ±18 h exist nowhere; refusing them catches unit mix-ups.
const MAX_UTC_OFFSET_MINUTES: i32 = 18 * 60;

/// A transaction of the history API (metadata camelCase, transfers snake_case),
/// reduced to what the display rules read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Transaction {
    /// When and where it was mined.
    pub metadata: TransactionMetadata,
    /// The assets it moved; an approval or a contract call may move none.
    #[serde(default)]
    pub transfers: Vec<Transfer>,
}

/// The part of a transaction's `metadata` the rules read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TransactionMetadata {
    /// ISO 8601 date, e.g. `2024-03-15T10:20:30Z`.
    pub mined_at: String,
    /// CAIP-2 id of the chain, e.g. `eip155:1`.
    pub chain: String,
}

/// One asset movement of a transaction.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Transfer {
    /// Present when the asset is an NFT.
    #[serde(default)]
    pub nft_info: Option<NftInfo>,
}

/// The NFT fields the rules read.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NftInfo {
    /// The indexer's verdict on the collection.
    #[serde(default)]
    pub flags: Option<NftFlags>,
}

/// Indexer flags on an NFT.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NftFlags {
    /// Marked as spam by the indexer.
    #[serde(default, deserialize_with = "crate::validate::null_as_false")]
    pub is_spam: bool,
}

impl Transfer {
    fn is_spam_nft(&self) -> bool {
        self.nft_info
            .as_ref()
            .and_then(|nft| nft.flags.as_ref())
            .is_some_and(|flags| flags.is_spam)
    }
}

impl Transaction {
    /// Whether every transfer is a spam-flagged NFT. A transaction with no
    /// transfers is not: approvals and contract calls are real activity (the
    /// original kit's vacuous "all of none" hid them).
    pub fn is_all_spam(&self) -> bool {
        !self.transfers.is_empty() && self.transfers.iter().all(Transfer::is_spam_nft)
    }

    /// When it was mined, in Unix milliseconds.
    pub fn mined_at_ms(&self) -> Result<i64> {
        parse_iso_date(&self.metadata.mined_at).ok_or_else(|| Error::InvalidInput {
            what: "transaction",
            reason: format!("minedAt is not an ISO 8601 date: {:?}", self.metadata.mined_at),
        })
    }
}

/// The transactions the Activity tab shows on `caip_network_id` (behaviour 5.13): those of
/// that chain that are not entirely spam NFTs, in input order.
pub fn filter_transactions<T: Borrow<Transaction>>(transactions: Vec<T>, caip_network_id: &str) -> Result<Vec<T>> {
    let chain = CaipNetworkId::parse(caip_network_id)?.to_string();
    Ok(transactions
        .into_iter()
        .filter(|t| {
            let t = t.borrow();
            t.metadata.chain == chain && !t.is_all_spam()
        })
        .collect())
}

/// The transactions of one calendar month.
#[derive(Debug, Clone, PartialEq)]
pub struct MonthGroup<T> {
    /// Calendar year.
    pub year: i64,
    /// 1 = January … 12 = December.
    pub month: u8,
    /// `March` in the current year, `March 2023` before it (behaviour 1.17).
    pub label: String,
    /// Whether the month is in the current year, so a translated heading leaves the year out.
    pub current_year: bool,
    /// The month's transactions in input order.
    pub transactions: Vec<T>,
}

/// Groups transactions by the month they were mined in, newest month first
/// (behaviour 1.17). Months are calendar months at `utc_offset_minutes` from UTC (the
/// viewer's zone; the core reads none), and so is "the current year" of `now_ms`.
/// A transaction whose `minedAt` is not a date is an error, not silently moved.
pub fn group_by_year_month<T: Borrow<Transaction>>(
    transactions: Vec<T>,
    now_ms: i64,
    utc_offset_minutes: i32,
) -> Result<Vec<MonthGroup<T>>> {
    if utc_offset_minutes.abs() > MAX_UTC_OFFSET_MINUTES {
        return Err(Error::InvalidInput {
            what: "UTC offset",
            reason: format!("expected minutes between -{MAX_UTC_OFFSET_MINUTES} and {MAX_UTC_OFFSET_MINUTES}"),
        });
    }
    let shift = i64::from(utc_offset_minutes) * MINUTE_MS;
    let current_year = YearMonth::of_millis(now_ms.saturating_add(shift)).year;
    let mut months: BTreeMap<YearMonth, Vec<T>> = BTreeMap::new();
    for transaction in transactions {
        let mined = transaction.borrow().mined_at_ms()?;
        months
            .entry(YearMonth::of_millis(mined + shift))
            .or_default()
            .push(transaction);
    }
    Ok(months
        .into_iter()
        .rev()
        .map(|(YearMonth { year, month }, transactions)| {
            let name = MONTH_NAMES[usize::from(month - 1)];
            MonthGroup {
                year,
                month,
                label: if year == current_year {
                    name.to_owned()
                } else {
                    format!("{name} {year}")
                },
                current_year: year == current_year,
                transactions,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tx(mined_at: &str, chain: &str, spam: &[bool]) -> Transaction {
        Transaction {
            metadata: TransactionMetadata {
                mined_at: mined_at.to_owned(),
                chain: chain.to_owned(),
            },
            transfers: spam
                .iter()
                .map(|&is_spam| Transfer {
                    nft_info: Some(NftInfo {
                        flags: Some(NftFlags { is_spam }),
                    }),
                })
                .collect(),
        }
    }

    // Behaviour 5.13: "a transaction is dropped if all transfers are spam-flagged NFTs;
    // only those matching the connected chain are kept".
    #[test]
    fn filters_spam_and_other_chains() {
        let fungible = Transfer { nft_info: None };
        let mut mixed = tx("2024-01-01", "eip155:1", &[true]);
        mixed.transfers.push(fungible);
        let all = vec![
            tx("2024-01-01", "eip155:1", &[]),
            tx("2024-01-01", "eip155:1", &[true, true]),
            tx("2024-01-01", "eip155:1", &[true, false]),
            tx("2024-01-01", "eip155:137", &[false]),
            mixed,
        ];
        let kept = filter_transactions(all.iter().collect(), "eip155:1").unwrap();
        assert_eq!(kept, vec![&all[0], &all[2], &all[4]]);
        assert!(filter_transactions(all, "eip155").is_err());
    }

    // Behaviour 1.17: "grouped by year, then month. The current year shows only the month
    // name; earlier years show month and year."
    #[test]
    fn groups_newest_month_first() {
        let now = parse_iso_date("2024-06-15T12:00:00Z").unwrap();
        let all = [
            tx("2024-06-01T00:00:00Z", "eip155:1", &[]),
            tx("2023-12-31T23:00:00Z", "eip155:1", &[]),
            tx("2024-06-10T00:00:00Z", "eip155:1", &[]),
            tx("2024-01-05T00:00:00Z", "eip155:1", &[]),
        ];
        let groups = group_by_year_month(all.iter().collect(), now, 0).unwrap();
        let summary: Vec<_> = groups
            .iter()
            .map(|g| (g.year, g.month, g.label.as_str(), g.current_year, g.transactions.len()))
            .collect();
        assert_eq!(
            summary,
            [
                (2024, 6, "June", true, 2),
                (2024, 1, "January", true, 1),
                (2023, 12, "December 2023", false, 1)
            ]
        );
        assert_eq!(groups[0].transactions, [&all[0], &all[2]]);

        // One hour ahead of UTC, the last transaction of 2023 falls in January 2024.
        let shifted = group_by_year_month(all.iter().collect(), now, 60).unwrap();
        assert_eq!(
            shifted.iter().map(|g| g.label.as_str()).collect::<Vec<_>>(),
            ["June", "January"]
        );
        assert!(group_by_year_month(all.iter().collect(), now, 24 * 60).is_err());
        assert!(group_by_year_month(vec![tx("yesterday", "eip155:1", &[])], now, 0).is_err());
        assert_eq!(group_by_year_month(Vec::<Transaction>::new(), now, 0).unwrap(), []);
    }

    /// A caller's own record: an input position beside the transaction.
    struct Indexed(usize, Transaction);

    impl Borrow<Transaction> for Indexed {
        fn borrow(&self) -> &Transaction {
            &self.1
        }
    }

    proptest! {
        // Grouping loses nothing, keeps input order within a month and orders months newest first.
        #[test]
        fn grouping_partitions(
            dates in prop::collection::vec((1970i64..2100, 1u8..=12, 1u8..=28, 0u8..24), 0..40),
            offset in -1080i32..=1080,
        ) {
            let all: Vec<Indexed> = dates
                .iter()
                .enumerate()
                .map(|(i, (y, m, d, h))| Indexed(i, tx(&format!("{y:04}-{m:02}-{d:02}T{h:02}:00:00Z"), "eip155:1", &[])))
                .collect();
            let count = all.len();
            let groups = group_by_year_month(all, 0, offset).unwrap();
            prop_assert_eq!(groups.iter().map(|g| g.transactions.len()).sum::<usize>(), count);
            for pair in groups.windows(2) {
                prop_assert!((pair[0].year, pair[0].month) > (pair[1].year, pair[1].month));
            }
            for group in &groups {
                prop_assert!(group.transactions.windows(2).all(|w| w[0].0 < w[1].0));
            }
        }
    }
}
