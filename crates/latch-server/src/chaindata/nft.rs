//! NFT media for history's `nft_info.content`: the token's URI read from its
//! contract (ERC-721 `tokenURI`, else ERC-1155 `uri` with `{id}` filled in),
//! its metadata JSON (inline `data:`, `ipfs://` through the configured
//! gateway, or fetched over http(s)), and the `image` it names.
//!
//! Fetching is bounded (time, size) and, because a token's URI is chosen by
//! whoever deployed it, refuses loopback and private addresses unless
//! `nft_metadata_private_hosts` is set (`--dev`).

use std::collections::HashMap;
use std::time::Duration;

use alloy_primitives::{Address, U256};
use alloy_sol_types::{sol, SolCall};
use futures_util::future::join_all;
use reqwest::Url;
use serde::Serialize;
use serde_json::Value;

use super::evm::{decode, multicall, Call};
use super::ChainData;
use crate::outbound;

sol! {
    function tokenURI(uint256 tokenId) returns (string);
    function uri(uint256 id) returns (string);
}

/// Metadata documents larger than this are not read.
pub const MAX_METADATA_BYTES: usize = 64 * 1024;
/// Inline (`data:`) images larger than this are not passed on to the browser.
pub const MAX_INLINE_IMAGE_BYTES: usize = 32 * 1024;
/// How long fetching one metadata document may take.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(3);

/// What the Activity tab shows for an NFT (`content.preview`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NftMedia {
    /// Where the browser loads the image from.
    pub url: String,
    /// Its MIME type, when the URL says.
    pub content_type: Option<String>,
}

/// Where a URI's content is.
#[derive(Debug, PartialEq, Eq)]
pub enum Location {
    /// A `data:` URI's bytes and MIME type.
    Inline { bytes: Vec<u8>, mime: String },
    /// An http(s) URL to fetch.
    Remote(Url),
}

/// ERC-1155: `{id}` in a URI stands for the id as 64 lowercase hex digits.
pub fn fill_id(template: &str, id: U256) -> String {
    template.replace("{id}", &format!("{id:064x}"))
}

/// `ipfs://CID/path` (or `ipfs://ipfs/CID/path`) as a URL of `gateway`.
fn through_gateway(uri: &str, gateway: Option<&str>) -> Option<Url> {
    let path = uri.strip_prefix("ipfs://")?;
    let path = path.strip_prefix("ipfs/").unwrap_or(path);
    if path.is_empty() {
        return None;
    }
    Url::parse(&format!("{}/ipfs/{path}", gateway?.trim_end_matches('/'))).ok()
}

/// Where `uri`'s content is, if it is a kind Latch reads.
pub fn locate(uri: &str, ipfs_gateway: Option<&str>) -> Option<Location> {
    let uri = uri.trim();
    if let Some(rest) = uri.strip_prefix("data:") {
        let (header, data) = rest.split_once(',')?;
        let (mime, base64) = match header.strip_suffix(";base64") {
            Some(mime) => (mime, true),
            None => (header, false),
        };
        let bytes = if base64 {
            latch_core::base64::decode(data.trim())?
        } else {
            percent_encoding::percent_decode_str(data).collect()
        };
        let mime = mime.split(';').next().unwrap_or_default();
        let mime = if mime.is_empty() { "text/plain" } else { mime };
        return Some(Location::Inline {
            bytes,
            mime: mime.to_ascii_lowercase(),
        });
    }
    if uri.starts_with("ipfs://") {
        return through_gateway(uri, ipfs_gateway).map(Location::Remote);
    }
    let url = Url::parse(uri).ok()?;
    matches!(url.scheme(), "http" | "https").then_some(Location::Remote(url))
}

/// The MIME type an image URL's extension names.
fn type_of_extension(url: &Url) -> Option<String> {
    let extension = url.path().rsplit_once('.')?.1.to_ascii_lowercase();
    let mime = match extension.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "svg" => "image/svg+xml",
        "webp" => "image/webp",
        "avif" => "image/avif",
        _ => return None,
    };
    Some(mime.to_owned())
}

/// The image a metadata document names (`image`, else `image_url`), as the browser can load it.
pub fn media_of(metadata: &[u8], ipfs_gateway: Option<&str>) -> Option<NftMedia> {
    let document: Value = serde_json::from_slice(metadata).ok()?;
    let image = ["image", "image_url"]
        .iter()
        .find_map(|key| document.get(key)?.as_str().filter(|s| !s.trim().is_empty()))?
        .trim();
    match locate(image, ipfs_gateway)? {
        Location::Inline { bytes, mime } => {
            (mime.starts_with("image/") && bytes.len() <= MAX_INLINE_IMAGE_BYTES).then(|| NftMedia {
                url: image.to_owned(),
                content_type: Some(mime),
            })
        }
        Location::Remote(url) => Some(NftMedia {
            content_type: type_of_extension(&url),
            url: url.into(),
        }),
    }
}

/// The HTTP client metadata is fetched with: every resolution and redirect
/// hop checked (unless `private_hosts`), no environment proxy.
pub fn client(private_hosts: bool) -> reqwest::Client {
    outbound::guarded_client(private_hosts, FETCH_TIMEOUT)
}

impl ChainData {
    async fn read_nft_media(&self, chain: &str, contract: Address, id: U256) -> Option<NftMedia> {
        let calls = vec![
            Call {
                target: contract,
                data: tokenURICall { tokenId: id }.abi_encode(),
            },
            Call {
                target: contract,
                data: uriCall { id }.abi_encode(),
            },
        ];
        let results = multicall(&self.gateway, chain, calls).await.ok()?;
        let uri = decode::<tokenURICall>(&results[0])
            .or_else(|| decode::<uriCall>(&results[1]).map(|template| fill_id(&template, id)))?;
        let gateway = self.ipfs_gateway.as_deref();
        let metadata = match locate(&uri, gateway)? {
            Location::Inline { bytes, .. } => bytes,
            Location::Remote(url) => self.fetch(url).await?,
        };
        media_of(&metadata, gateway)
    }

    /// At most [`MAX_METADATA_BYTES`] of `url`, if it answers 2xx in time.
    async fn fetch(&self, url: Url) -> Option<Vec<u8>> {
        fetch_metadata(&self.nft_http, url, self.nft_private_hosts).await
    }

    /// The images of the NFTs `wanted` (chain, contract, id) for one answer:
    /// cached ones as they are, and at most [`MAX_NFT_READS_PER_REQUEST`] of the
    /// others read concurrently, all by one [`NFT_READS_DEADLINE`]. The rest
    /// (over the budget, or unfinished at the deadline) are left out of the map
    /// and not cached, so a later page reads them: one page of hostile token
    /// URIs costs one deadline, not fifty timeouts in a row.
    pub async fn nft_media_page(&self, wanted: &[NftKey]) -> HashMap<NftKey, Option<NftMedia>> {
        let mut found = HashMap::new();
        let mut to_read = Vec::new();
        for key in wanted {
            if found.contains_key(key) || to_read.contains(key) {
                continue;
            }
            match self.nft_media.get(key) {
                Some(hit) => {
                    found.insert(key.clone(), hit);
                }
                None if to_read.len() < MAX_NFT_READS_PER_REQUEST => to_read.push(key.clone()),
                None => {}
            }
        }
        let deadline = tokio::time::Instant::now() + NFT_READS_DEADLINE;
        let reads = to_read.into_iter().map(|key| async move {
            let (chain, contract, id) = &key;
            let read = tokio::time::timeout_at(deadline, self.read_nft_media(chain, *contract, *id)).await;
            (key, read.ok())
        });
        for (key, media) in join_all(reads).await {
            if let Some(media) = media {
                self.nft_media.put(key.clone(), media.clone());
                found.insert(key, media);
            }
        }
        found
    }
}

/// Which NFT: (CAIP-2 chain, contract, token id).
pub type NftKey = (String, Address, U256);

/// NFT media reads (contract call plus metadata fetch) one answer may start.
pub const MAX_NFT_READS_PER_REQUEST: usize = 8;
/// How long one answer waits for all its NFT media reads together.
pub const NFT_READS_DEADLINE: Duration = Duration::from_secs(4);

/// At most [`MAX_METADATA_BYTES`] of `url` with `client` (a [`client`]), if it
/// answers 2xx in time; a literal non-public address is refused here, since no
/// resolver sees it (redirect hops are checked by the client's policy).
pub async fn fetch_metadata(client: &reqwest::Client, url: Url, private_hosts: bool) -> Option<Vec<u8>> {
    if !private_hosts && !outbound::may_fetch(&url) {
        return None;
    }
    let response = client.get(url).send().await.ok()?.error_for_status().ok()?;
    outbound::read_at_most(response, MAX_METADATA_BYTES).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const GATEWAY: Option<&str> = Some("https://ipfs.example/");

    #[test]
    fn locates_data_ipfs_and_http() {
        assert_eq!(
            locate("data:application/json;base64,eyJhIjoxfQ==", None),
            Some(Location::Inline {
                bytes: br#"{"a":1}"#.to_vec(),
                mime: "application/json".into()
            })
        );
        assert_eq!(
            locate("data:application/json;utf8,%7B%22a%22%3A1%7D", None),
            Some(Location::Inline {
                bytes: br#"{"a":1}"#.to_vec(),
                mime: "application/json".into()
            })
        );
        let remote = |uri: &str, gateway| match locate(uri, gateway) {
            Some(Location::Remote(url)) => Some(url.to_string()),
            _ => None,
        };
        assert_eq!(
            remote("ipfs://QmCid/1.json", GATEWAY).as_deref(),
            Some("https://ipfs.example/ipfs/QmCid/1.json")
        );
        assert_eq!(
            remote("ipfs://ipfs/QmCid/1.json", GATEWAY).as_deref(),
            Some("https://ipfs.example/ipfs/QmCid/1.json")
        );
        assert_eq!(remote("ipfs://QmCid", None), None, "no gateway configured");
        assert_eq!(
            remote("https://nft.example/1", None).as_deref(),
            Some("https://nft.example/1")
        );
        for refused in [
            "ftp://x/1",
            "file:///etc/passwd",
            "javascript:alert(1)",
            "",
            "ar://tx",
            "data:no-comma",
        ] {
            assert_eq!(locate(refused, GATEWAY), None, "{refused}");
        }
    }

    #[test]
    fn fills_erc1155_ids() {
        assert_eq!(
            fill_id("https://x/{id}.json", U256::from(314)),
            format!("https://x/{}13a.json", "0".repeat(61))
        );
    }

    #[test]
    fn media_from_metadata() {
        let media = |json: &str| media_of(json.as_bytes(), GATEWAY);
        assert_eq!(
            media(r#"{"name":"A","image":"ipfs://QmImg/a.png"}"#),
            Some(NftMedia {
                url: "https://ipfs.example/ipfs/QmImg/a.png".into(),
                content_type: Some("image/png".into())
            })
        );
        assert_eq!(
            media(r#"{"image_url":"https://img.example/a"}"#),
            Some(NftMedia {
                url: "https://img.example/a".into(),
                content_type: None
            })
        );
        let svg = "data:image/svg+xml;base64,PHN2Zy8+";
        assert_eq!(
            media(&format!(r#"{{"image":"{svg}"}}"#)),
            Some(NftMedia {
                url: svg.into(),
                content_type: Some("image/svg+xml".into())
            })
        );
        for none in [
            r#"{"image":"data:text/html,<script>"}"#,
            r#"{"name":"no image"}"#,
            "not json",
            r#"{"image":7}"#,
        ] {
            assert_eq!(media(none), None, "{none}");
        }
    }

    proptest! {
        #[test]
        fn parsers_never_panic(uri in "\\PC*", bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
            let _ = locate(&uri, GATEWAY);
            let _ = media_of(&bytes, GATEWAY);
            let _ = media_of(uri.as_bytes(), GATEWAY);
        }

        #[test]
        fn base64_data_uris_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            let uri = format!("data:application/json;base64,{}", latch_core::base64::encode(&bytes));
            prop_assert_eq!(locate(&uri, None), Some(Location::Inline { bytes, mime: "application/json".into() }));
        }
    }
}
