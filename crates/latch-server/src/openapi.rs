//! `GET /openapi.json`: the API description, generated from the handlers'
//! annotations so it cannot drift from the routes.

use axum::extract::State;
use axum::Json;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::RefOr;
use utoipa::{Modify, OpenApi};

use crate::analytics::{AnalyticsConfig, EventBatch, IncomingEvent, IncomingProps, Ingested};
use crate::catalogue::{Wallet, WalletPage};
use crate::dashboard::{DayCounts, Summary};
use crate::error::{ErrorBody, Reason};
use crate::rpc::{JsonRpcBody, JsonRpcRequest, SupportedChains};
use crate::AppState;

/// The whole API.
#[derive(OpenApi)]
#[openapi(
    info(title = "latch", description = "The self-hosted service behind the Latch wallet modal."),
    paths(
        crate::rpc::rpc,
        crate::rpc::supported_chains,
        crate::analytics::event,
        crate::analytics::batch,
        crate::analytics::config,
        crate::catalogue::get_wallets,
        crate::chaindata::balances::balance,
        crate::chaindata::balances::price,
        crate::chaindata::identity::identity,
        crate::chaindata::history::history,
        crate::chaindata::nfts::nfts,
        crate::convert::tokens,
        crate::convert::quotes,
        crate::convert::allowance,
        crate::convert::gas_price,
        crate::convert::build_approve,
        crate::convert::build_transaction,
        crate::names::register,
        crate::names::lookup,
        crate::names::reverse,
        crate::names::suggestions,
        crate::ccip::get_lookup,
        crate::ccip::post_lookup,
        crate::siwx::nonce,
        crate::siwx::create,
        crate::siwx::list,
        crate::siwx::revoke,
        crate::siwx::current,
        crate::siwx::sign_out,
        crate::siwx::verify,
        crate::siwx::refresh,
        crate::embedded::frame::frame_config,
        crate::embedded::rpc,
        crate::embedded::login::start,
        crate::embedded::login::verify,
        crate::embedded::login::approve_device,
        crate::embedded::login::outbox,
        crate::embedded::account::user,
        crate::embedded::account::sign_out,
        crate::embedded::account::put_wallet,
        crate::embedded::account::wallet,
        crate::embedded::account::put_envelope,
        crate::embedded::account::update_email,
        crate::embedded::account::verify_update,
        crate::embedded::social::start,
        crate::embedded::social::callback,
        crate::embedded::social::callback_form,
        crate::embedded::social::finish,
        crate::images::wallet_image,
        crate::images::asset_image,
        crate::images::currency_image,
        crate::images::token_image,
        crate::onramp::options,
        crate::onramp::quote,
        crate::onramp::onramp_url,
        crate::dashboard::summary,
        crate::dashboard::projects,
    ),
    components(schemas(crate::chaindata::balances::Balances, crate::chaindata::balances::Balance, crate::chaindata::balances::Quantity,
        crate::chaindata::balances::PriceRequest, crate::chaindata::balances::Fungibles, crate::chaindata::balances::Fungible,
        crate::chaindata::identity::Identity, crate::chaindata::history::History, crate::chaindata::nfts::Nfts, crate::chaindata::nfts::Nft, crate::names::Registration, crate::onramp::OptionsReply, crate::onramp::QuoteBody, crate::onramp::UrlBody, crate::onramp::DestinationWallet, crate::onramp::UrlReply, crate::names::NameAndAddresses,
        crate::convert::SwapTokens, crate::convert::SwapTokenInfo, crate::convert::GasPrice, crate::convert::Quotes, crate::convert::Quote,
        crate::convert::Allowance, crate::convert::BuiltTransaction, crate::convert::BuiltTx, crate::convert::Eip155Fields,
        crate::convert::BuildRequest, crate::convert::SlippageField,
        crate::names::NameAddress, crate::names::Suggestions, crate::names::Suggestion,
        crate::ccip::Answer, crate::ccip::Lookup,
        crate::siwx::NonceRequest, crate::siwx::Nonce, crate::siwx::SignIn, crate::siwx::SessionCreated, crate::siwx::SessionReply,
        crate::siwx::Revoked, crate::siwx::VerifyRequest, crate::siwx::Verified, crate::siwx::SessionSummary, crate::siwx::RefreshRequest, crate::siwx::Sessions, crate::siwx::RevokeRequest, crate::store::SiwxSession,
        crate::embedded::login::StartRequest, crate::embedded::login::StartAnswer, crate::embedded::login::VerifyRequest, crate::embedded::login::LoggedIn,
        crate::embedded::login::Outbox, crate::embedded::mail::OutboxMail, crate::embedded::UserInfo, crate::embedded::UserAccount, crate::embedded::frame::FrameConfig,
        crate::embedded::account::WalletShares, crate::embedded::account::NewEnvelope, crate::embedded::account::UpdateEmail, crate::embedded::account::UpdateAnswer, crate::embedded::account::VerifyUpdate,
        crate::embedded::social::SocialStart, crate::embedded::social::SocialFinish, crate::embedded::social::CallbackQuery,
        EventBatch, IncomingEvent, IncomingProps, JsonRpcBody, JsonRpcRequest, Wallet, WalletPage, ErrorBody, Reason, SupportedChains, Ingested, AnalyticsConfig, Summary, DayCounts)),
    modifiers(&AdminToken)
)]
pub struct ApiDoc;

struct AdminToken;

impl Modify for AdminToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "admin_token",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        // Every public endpoint names its project one of two ways (behaviour 6.2).
        let described = |name: &str| {
            ApiKeyValue::with_description(
                name,
                "The project id; unknown ids get 401, origins off its allowlist 403",
            )
        };
        components.add_security_scheme(
            "project_id",
            SecurityScheme::ApiKey(ApiKey::Query(described("projectId"))),
        );
        components.add_security_scheme(
            "project_header",
            SecurityScheme::ApiKey(ApiKey::Header(described("x-project-id"))),
        );
    }
}

/// `GET /openapi.json`: the generated document, with the `chainId` parameters
/// narrowed to the chains this `latch` serves (known only from its configuration).
pub async fn serve(State(state): State<AppState>) -> Json<utoipa::openapi::OpenApi> {
    let mut api = ApiDoc::openapi();
    let chains: Vec<&str> = state.gateway.chain_ids().collect();
    for item in api.paths.paths.values_mut() {
        for operation in [&mut item.get, &mut item.post].into_iter().flatten() {
            for parameter in operation.parameters.iter_mut().flatten() {
                let RefOr::T(parameter) = parameter else { continue };
                if parameter.name == "chainId" {
                    let served = ObjectBuilder::new()
                        .schema_type(Type::String)
                        .enum_values(Some(chains.iter().copied()))
                        .description(Some("A CAIP-2 id this gateway serves (see /v1/supported-chains)"));
                    parameter.schema = Some(served.into());
                }
            }
        }
    }
    Json(api)
}

/// A list of 1 to `max` items of the component schema `item`.
pub(crate) fn bounded_list(item: &str, max: usize) -> RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name(item))
        .min_items(Some(1))
        .max_items(Some(max))
        .into()
}
