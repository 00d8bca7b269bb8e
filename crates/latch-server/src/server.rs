//! Serving [`app`] on a socket: what `latch serve` runs, and what the security
//! suite starts in-process to attack a real server over TCP.

use std::future::Future;
use std::net::SocketAddr;
use std::time::Duration;

use crate::config::DEV_ORIGINS;
use crate::store::{Project, StoreResult};
use crate::{app, AppState};

/// The project `latch serve --dev` serves local origins under.
pub const DEV_PROJECT: &str = "demo";

/// Adds the `--dev` project ([`DEV_PROJECT`], allowing [`DEV_ORIGINS`]) unless it exists.
pub async fn ensure_dev_project(state: &AppState) -> StoreResult<()> {
    if state.store.project(DEV_PROJECT).await?.is_some() {
        return Ok(());
    }
    state
        .store
        .put_project(&Project {
            id: DEV_PROJECT.into(),
            allowed_origins: DEV_ORIGINS.map(String::from).to_vec(),
            created_at: crate::now_ms() / 1000,
            analytics_enabled: true,
        })
        .await
}

/// How long open connections may outlive a shutdown request.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `state` on `listener` until `stop` resolves, then lets in-flight
/// requests finish for at most [`SHUTDOWN_GRACE`].
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (stopping, mut stop_requested) = tokio::sync::watch::channel(false);
    let relay = state.relay.clone();
    // With no public URL configured, tokens may name the loopback port actually bound.
    relay.serving_on(listener.local_addr()?.port());
    // No Nagle delay: relay frames and JSON-RPC answers are small and latency-bound.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
    });
    let server = axum::serve(listener, app(state).into_make_service_with_connect_info::<SocketAddr>())
        .with_graceful_shutdown(async move {
            stop.await;
            // Relay sockets never end on their own: close them (1001) so clients reconnect.
            relay.shutdown();
            let _ = stopping.send(true);
        });
    tokio::select! {
        served = server => served?,
        _ = async {
            let _ = stop_requested.wait_for(|stop| *stop).await;
            tokio::time::sleep(SHUTDOWN_GRACE).await;
        } => tracing::warn!("connections still open after {SHUTDOWN_GRACE:?}; stopping anyway"),
    }
    Ok(())
}
