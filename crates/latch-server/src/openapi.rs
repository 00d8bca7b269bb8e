//! `GET /openapi.json`: the API description, generated from the handlers'
//! annotations so it cannot drift from the routes.

use axum::Json;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::analytics::{AnalyticsConfig, Ingested};
use crate::catalogue::{Wallet, WalletPage};
use crate::dashboard::{DayCounts, Summary};
use crate::error::{ErrorBody, Reason};
use crate::SupportedChains;

/// The whole API.
#[derive(OpenApi)]
#[openapi(
    info(title = "latch", description = "The self-hosted service behind the Latch wallet modal."),
    paths(
        crate::rpc,
        crate::supported_chains,
        crate::analytics::event,
        crate::analytics::batch,
        crate::analytics::config,
        crate::catalogue::get_wallets,
        crate::images::wallet_image,
        crate::images::asset_image,
        crate::images::currency_image,
        crate::images::token_image,
        crate::dashboard::summary,
        crate::dashboard::projects,
    ),
    components(schemas(Wallet, WalletPage, ErrorBody, Reason, SupportedChains, Ingested, AnalyticsConfig, Summary, DayCounts)),
    modifiers(&AdminToken)
)]
pub struct ApiDoc;

struct AdminToken;

impl Modify for AdminToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let scheme = SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build());
        openapi
            .components
            .get_or_insert_with(Default::default)
            .add_security_scheme("admin_token", scheme);
    }
}

/// `GET /openapi.json`.
pub async fn serve() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
