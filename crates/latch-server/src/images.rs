//! Image blobs (behaviour 6.13): `GET /getWalletImage/{id}`, `/public/getAssetImage/{id}`,
//! `/public/getCurrencyImage/{code}` and `/public/getTokenImage/{symbol}`, and the
//! `images` part of a catalogue bundle that `latch catalogue import` reads.
//!
//! Images change rarely and are shown in every modal open, so answers carry a
//! week of cache lifetime plus a strong ETag: a browser revalidates with one
//! `304` instead of refetching the bytes.

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::store::StoredImage;
use crate::AppState;

/// The kinds of image, each served by its own path.
pub const KINDS: [&str; 4] = ["wallet", "asset", "currency", "token"];
/// Media types accepted on import: raster formats browsers show, and SVG
/// (served under a CSP that keeps any script in it from running).
const CONTENT_TYPES: [&str; 5] = ["image/svg+xml", "image/png", "image/jpeg", "image/webp", "image/gif"];
/// Largest image accepted on import.
pub const MAX_IMAGE_BYTES: usize = 512 * 1024;
/// `Cache-Control` of an image answer: a week, then revalidation by ETag.
const CACHE_CONTROL: &str = "public, max-age=604800, stale-while-revalidate=86400";

/// Why an image could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// The bundle's `images` field is not a list of image entries.
    #[error("images: {0}")]
    Format(String),
    /// One image breaks a rule.
    #[error("image {index} ({kind}/{id}): {reason}")]
    Entry {
        /// Position in the list.
        index: usize,
        /// Its kind, as given.
        kind: String,
        /// Its id, as given.
        id: String,
        /// What is wrong.
        reason: String,
    },
}

/// One image as a bundle carries it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ImageEntry {
    kind: String,
    id: String,
    content_type: String,
    /// Standard base64 of the bytes.
    data: String,
}

/// Whether `id` can name an image: 1-128 of letters, digits and `-_.:` (CAIP-2 ids included).
pub fn is_valid_image_id(id: &str) -> bool {
    (1..=128).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// A checked image of `kind`/`id` with its ETag; `Err` says what is wrong.
pub fn image(kind: &str, id: &str, content_type: &str, data: Vec<u8>) -> Result<StoredImage, String> {
    if !KINDS.contains(&kind) {
        return Err(format!("kind must be one of {}", KINDS.join(", ")));
    }
    if !is_valid_image_id(id) {
        return Err("id must be 1-128 of A-Z a-z 0-9 - _ . :".into());
    }
    if !CONTENT_TYPES.contains(&content_type) {
        return Err(format!("content type must be one of {}", CONTENT_TYPES.join(", ")));
    }
    if data.is_empty() || data.len() > MAX_IMAGE_BYTES {
        return Err(format!("must be 1 to {MAX_IMAGE_BYTES} bytes"));
    }
    let digest = Sha256::digest(&data);
    Ok(StoredImage {
        kind: kind.to_owned(),
        id: id.to_owned(),
        content_type: content_type.to_owned(),
        etag: format!("\"{}\"", hex::encode(&digest[..16])),
        data,
    })
}

/// The media type a file name implies, for `latch catalogue image`.
pub fn content_type_for(file_name: &str) -> Option<&'static str> {
    let extension = file_name.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match extension.as_str() {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "gif" => "image/gif",
        _ => return None,
    })
}

/// The `images` of a catalogue bundle (`{"data": [...], "images": [...]}`);
/// none when `text` has no such field. One bad image refuses the whole list.
pub fn parse_images(text: &str) -> Result<Vec<StoredImage>, ImageError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ImageError::Format(e.to_string()))?;
    let Some(images) = value.get("images") else {
        return Ok(Vec::new());
    };
    let Value::Array(entries) = images else {
        return Err(ImageError::Format("expected a list".into()));
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            let field = |name: &str| entry.get(name).and_then(Value::as_str).unwrap_or("?").to_owned();
            let refuse = |reason: String| ImageError::Entry {
                index,
                kind: field("kind"),
                id: field("id"),
                reason,
            };
            let parsed = ImageEntry::deserialize(entry).map_err(|e| refuse(e.to_string()))?;
            let data = latch_core::base64::decode(&parsed.data)
                .ok_or_else(|| refuse("data is not base64 (standard alphabet, padded)".to_owned()))?;
            image(&parsed.kind, &parsed.id, &parsed.content_type, data).map_err(refuse)
        })
        .collect()
}

/// The answer for the stored image `kind`/`id`: its bytes, or `304` when the
/// client's `If-None-Match` already names its ETag.
async fn serve(state: &AppState, kind: &'static str, id: &str, headers: &HeaderMap) -> ApiResult<Response> {
    if !is_valid_image_id(id) {
        return Err(ApiError::bad("id", "an image id is 1-128 of A-Z a-z 0-9 - _ . :"));
    }
    let image = state
        .store
        .image(kind, id)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?
        .ok_or(ApiError::NotFound)?;
    let etag = HeaderValue::from_str(&image.etag).map_err(|e| ApiError::Internal(e.into()))?;
    let cached = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag.trim_start_matches("W/") == image.etag
        });
    let common = [
        (header::ETAG, etag),
        (header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL)),
    ];
    if cached {
        return Ok((StatusCode::NOT_MODIFIED, common).into_response());
    }
    let content_type = HeaderValue::from_str(&image.content_type).map_err(|e| ApiError::Internal(e.into()))?;
    Ok((
        common,
        [
            (header::CONTENT_TYPE, content_type),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
            // An SVG opened on its own must not run script or load anything.
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
            ),
        ],
        image.data,
    )
        .into_response())
}

/// Declares one image endpoint: a handler for `kind` plus its OpenAPI entry.
macro_rules! image_endpoint {
    ($name:ident, $kind:literal, $path:literal, $param:literal, $what:literal) => {
        #[doc = concat!("`GET ", $path, "`: ", $what, ".")]
        #[utoipa::path(get, path = $path, tag = "images",
                    params(($param = String, Path, description = $what, pattern = "^[A-Za-z0-9._:-]{1,128}$"),
                           ("If-None-Match" = Option<String>, Header, description = "An ETag from an earlier answer")),
                    security(("project_id" = []), ("project_header" = [])),
                    responses((status = 200, description = "The image bytes", content_type = "image/*"),
                              (status = 304, description = "The client's copy is current"),
                              (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
                              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
        pub async fn $name(
            State(state): State<AppState>,
            _caller: Caller,
            Path(id): Path<String>,
            headers: HeaderMap,
        ) -> ApiResult<Response> {
            serve(&state, $kind, &id, &headers).await
        }
    };
}

image_endpoint!(
    wallet_image,
    "wallet",
    "/getWalletImage/{id}",
    "id",
    "A wallet's image, by its image_id"
);
image_endpoint!(
    asset_image,
    "asset",
    "/public/getAssetImage/{id}",
    "id",
    "A network's image, by its CAIP-2 id or image id"
);
image_endpoint!(
    currency_image,
    "currency",
    "/public/getCurrencyImage/{id}",
    "id",
    "A fiat currency's image, by ISO 4217 code"
);
image_endpoint!(
    token_image,
    "token",
    "/public/getTokenImage/{id}",
    "id",
    "A token's image, by symbol"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_every_field() {
        let ok = image("token", "USDC", "image/png", vec![1, 2, 3]).unwrap();
        assert_eq!(ok.etag.len(), 34, "32 hex digits in quotes");
        assert_eq!(
            image("token", "USDC", "image/png", vec![1, 2, 3]).unwrap().etag,
            ok.etag
        );
        assert_ne!(image("token", "USDC", "image/png", vec![1, 2]).unwrap().etag, ok.etag);
        assert!(image("icon", "x", "image/png", vec![1])
            .unwrap_err()
            .starts_with("kind must be"));
        assert!(image("token", "a/b", "image/png", vec![1])
            .unwrap_err()
            .starts_with("id must be"));
        assert!(image("token", "x", "text/html", vec![1])
            .unwrap_err()
            .starts_with("content type"));
        assert!(image("token", "x", "image/png", vec![]).is_err());
        assert!(image("token", "x", "image/png", vec![0; MAX_IMAGE_BYTES + 1]).is_err());
        assert!(image("asset", "eip155:31337", "image/svg+xml", b"<svg/>".to_vec()).is_ok());
    }

    #[test]
    fn parses_bundle_images_and_refuses_bad_ones() {
        assert!(parse_images(r#"{"data": []}"#).unwrap().is_empty());
        let images = parse_images(
            r#"{"images": [{"kind": "wallet", "id": "w1", "contentType": "image/svg+xml", "data": "PHN2Zy8+"}]}"#,
        )
        .unwrap();
        assert_eq!(images[0].data, b"<svg/>");
        let err = parse_images(
            r#"{"images": [{"kind": "wallet", "id": "w1", "contentType": "image/svg+xml", "data": "%%%"}]}"#,
        )
        .unwrap_err();
        assert!(
            err.to_string().starts_with("image 0 (wallet/w1): data is not base64"),
            "{err}"
        );
        let err = parse_images(r#"{"images": [{"kind": "wallet", "id": "w1"}]}"#).unwrap_err();
        assert!(err.to_string().contains("missing field"), "{err}");
        assert!(parse_images(r#"{"images": {}}"#).is_err());
    }

    #[test]
    fn content_types_follow_extensions() {
        assert_eq!(content_type_for("a.SVG"), Some("image/svg+xml"));
        assert_eq!(content_type_for("a.jpeg"), Some("image/jpeg"));
        assert_eq!(content_type_for("a.txt"), None);
        assert_eq!(content_type_for("noext"), None);
    }

    proptest::proptest! {
        #[test]
        fn never_panics_on_any_bundle(text in ".{0,200}") {
            let _ = parse_images(&text);
        }
    }
}
