//! `GET /v1/account/{address}/nfts`: the ERC-721 and ERC-1155 tokens an
//! address holds on the indexed chains, from the indexer's transfer records
//! (what came in minus what went out), with the image the Activity tab shows.
//! The NFTs tab reads this, so a token received long before the newest
//! Activity pages is still listed.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};
use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::nft::{NftKey, NftMedia};
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::Transfer;
use crate::AppState;

/// Transfer records read for one answer at most; past it the answer is `partial`.
pub const MAX_NFT_TRANSFERS: u32 = 10_000;
/// Tokens one answer lists at most (the most recently received); past it the answer is `partial`.
pub const MAX_LISTED_NFTS: usize = 200;

/// `GET /v1/account/{address}/nfts` parameters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct NftsQuery {
    /// One CAIP-2 chain; all indexed chains when absent.
    chain_id: Option<String>,
}

/// The tokens held.
#[derive(Serialize, ToSchema)]
pub struct Nfts {
    /// Most recently received first.
    pub data: Vec<Nft>,
    /// True when the holdings may be incomplete: the chain is not indexed, the
    /// address has more NFT transfers than one answer reads, or holds more
    /// tokens than one answer lists.
    pub partial: bool,
}

/// One token held.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Nft {
    /// CAIP-2 chain id.
    pub chain_id: String,
    /// The token contract, lower case.
    pub contract: String,
    /// The token id, decimal.
    pub token_id: String,
    /// `erc721` or `erc1155`.
    pub kind: String,
    /// How many are held (1 for an ERC-721), decimal.
    pub amount: String,
    /// The collection's name and the id, e.g. `Latch Dev NFT #0`.
    pub name: String,
    /// The token's image, when its metadata names one (and it was read in time).
    #[schema(value_type = Option<Object>)]
    pub content: Option<serde_json::Value>,
    /// Unsolicited, as the history flags it: it last came in a transaction the holder did not send.
    pub is_spam: bool,
}

/// How much of a token is held, and how it last came in.
struct Held {
    kind: String,
    amount: U256,
    /// (block, transaction, log) of the last transfer in.
    position: (i64, i64, i64),
    /// That transfer's transaction was not the holder's own.
    unsolicited: bool,
}

/// A held token: chain, contract, id, kind, amount, unsolicited.
pub type Holding = (String, String, String, String, U256, bool);

/// What `me` holds after `transfers` (oldest first), most recently received first.
pub fn holdings(transfers: &[Transfer], me: &str) -> Vec<Holding> {
    let mut held: HashMap<(String, String, String), Held> = HashMap::new();
    for t in transfers {
        let (Some(contract), Some(id)) = (&t.token, &t.token_id) else {
            continue;
        };
        let Ok(amount) = t.amount.parse::<U256>() else { continue };
        let key = (t.chain.clone(), contract.clone(), id.clone());
        let entry = held.entry(key).or_insert(Held {
            kind: t.kind.clone(),
            amount: U256::ZERO,
            position: (0, 0, 0),
            unsolicited: false,
        });
        // A transfer to oneself changes nothing.
        if t.recipient == me && t.sender != me {
            entry.amount = entry.amount.saturating_add(amount);
            entry.position = (t.block_number, t.tx_index, t.log_index);
            entry.unsolicited = t.tx_from != me;
        } else if t.sender == me && t.recipient != me {
            entry.amount = entry.amount.saturating_sub(amount);
        }
    }
    let mut list: Vec<_> = held.into_iter().filter(|(_, held)| !held.amount.is_zero()).collect();
    list.sort_by_key(|(_, held)| std::cmp::Reverse(held.position));
    list.into_iter()
        .map(|((chain, contract, id), held)| (chain, contract, id, held.kind, held.amount, held.unsolicited))
        .collect()
}

/// `GET /v1/account/{address}/nfts`.
#[utoipa::path(get, path = "/v1/account/{address}/nfts", tag = "chain data",
    params(("address" = String, Path, description = "An EVM address (0x…)"), NftsQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Nfts), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub async fn nfts(
    State(state): State<AppState>,
    _caller: Caller,
    Path(address): Path<String>,
    ApiQuery(query): ApiQuery<NftsQuery>,
) -> ApiResult<Json<Nfts>> {
    let (me, chain, indexed) = super::history::account_on_chain(&state, &address, query.chain_id.as_deref())?;
    let transfers = state
        .store
        .nft_transfers(&me, chain, MAX_NFT_TRANSFERS)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let mut held = holdings(&transfers, &me);
    let partial = !indexed || transfers.len() >= MAX_NFT_TRANSFERS as usize || held.len() > MAX_LISTED_NFTS;
    // Each collection not seen before costs a metadata read: one answer lists a bounded number.
    held.truncate(MAX_LISTED_NFTS);
    let data = &state.chain_data;
    let keys: Vec<NftKey> = held
        .iter()
        .filter_map(|(chain, contract, id, ..)| Some((chain.clone(), contract.parse().ok()?, id.parse().ok()?)))
        .collect();
    let media: HashMap<NftKey, Option<NftMedia>> = data.nft_media_page(&keys).await;
    let mut list = Vec::with_capacity(held.len());
    for (chain, contract, id, kind, amount, is_spam) in held {
        let address = contract.parse::<Address>().ok();
        let collection = match address {
            Some(address) => data.token_meta(&chain, address).await.map(|m| m.name),
            None => None,
        };
        let content = match (address, id.parse::<U256>()) {
            (Some(address), Ok(number)) => media
                .get(&(chain.clone(), address, number))
                .cloned()
                .flatten()
                .map(|media| serde_json::json!({ "preview": media })),
            _ => None,
        };
        list.push(Nft {
            name: format!("{} #{id}", collection.as_deref().unwrap_or("NFT")),
            chain_id: chain,
            contract,
            token_id: id,
            kind,
            amount: amount.to_string(),
            content,
            is_spam,
        });
    }
    Ok(Json(Nfts { data: list, partial }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ME: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
    const OTHER: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";

    fn transfer(block: i64, kind: &str, id: &str, from: &str, to: &str, amount: &str) -> Transfer {
        Transfer {
            chain: "eip155:31337".into(),
            block_number: block,
            tx_index: 0,
            log_index: 0,
            tx_hash: format!("0x{block:x}"),
            kind: kind.into(),
            token: Some("0xnft".into()),
            token_id: Some(id.into()),
            sender: from.into(),
            recipient: to.into(),
            amount: amount.into(),
            mined_at: 0,
            success: true,
            nonce: 0,
            tx_from: from.into(),
            tx_to: None,
        }
    }

    #[test]
    fn in_minus_out_newest_first() {
        let transfers = [
            transfer(1, "erc721", "1", OTHER, ME, "1"),
            transfer(2, "erc721", "2", OTHER, ME, "1"),
            transfer(3, "erc721", "1", ME, OTHER, "1"),
            transfer(4, "erc1155", "7", OTHER, ME, "5"),
            transfer(5, "erc1155", "7", ME, OTHER, "2"),
            transfer(6, "erc721", "3", ME, ME, "1"),
        ];
        let held: Vec<(String, String)> = holdings(&transfers, ME)
            .into_iter()
            .map(|(_, _, id, _, amount, _)| (id, amount.to_string()))
            .collect();
        assert_eq!(held, [("7".to_owned(), "3".to_owned()), ("2".into(), "1".into())]);
    }

    #[test]
    fn a_token_that_came_in_someone_else_s_transaction_is_unsolicited() {
        let mut gift = transfer(1, "erc721", "1", OTHER, ME, "1");
        let mut bought = transfer(2, "erc721", "2", OTHER, ME, "1");
        gift.tx_from = OTHER.into();
        bought.tx_from = ME.into();
        let held: Vec<(String, bool)> = holdings(&[gift, bought], ME)
            .into_iter()
            .map(|(_, _, id, _, _, spam)| (id, spam))
            .collect();
        assert_eq!(held, [("2".to_owned(), false), ("1".into(), true)]);
    }

    #[test]
    fn more_out_than_in_never_wraps() {
        let transfers = [transfer(1, "erc1155", "9", ME, OTHER, "5")];
        assert!(holdings(&transfers, ME).is_empty());
    }
}
