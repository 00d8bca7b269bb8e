use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use latch_server::config::{check_origin_pattern, Config, DEV_ORIGINS};
use latch_server::server::DEV_PROJECT;
use latch_server::store::{self, is_valid_project_id, Project};
use latch_server::AppState;
use latch_server::{catalogue, images};

// Every request allocates a little (headers, bodies, futures); mimalloc keeps that off glibc's locks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// latch: the self-hosted service behind the Latch wallet modal.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// Configuration file (missing is fine: defaults and LATCH_* variables apply).
    #[arg(long, global = true, env = "LATCH_CONFIG", default_value = "latch.toml")]
    config: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (and the demo with --dev).
    Serve {
        /// Development mode: the local devnet chain, the `demo` project, the demo app at `/`.
        #[arg(long)]
        dev: bool,
        /// Port to listen on (overrides the configuration).
        #[arg(long)]
        port: Option<u16>,
        /// A built web app to serve at `/`.
        #[arg(long)]
        static_dir: Option<PathBuf>,
    },
    /// Manage the projects allowed to use this server.
    Project {
        #[command(subcommand)]
        action: ProjectAction,
    },
    /// Manage the wallet catalogue behind /getWallets.
    Catalogue {
        #[command(subcommand)]
        action: CatalogueAction,
    },
}

/// A wallet given on the command line.
#[derive(clap::Args)]
struct NewWallet {
    #[arg(long)]
    id: String,
    #[arg(long)]
    name: String,
    /// EIP-6963 reverse-DNS id, e.g. io.metamask.
    #[arg(long)]
    rdns: Option<String>,
    /// A supported CAIP-2 chain (repeatable).
    #[arg(long = "chain")]
    chains: Vec<String>,
    #[arg(long)]
    homepage: Option<String>,
    #[arg(long)]
    image_url: Option<String>,
    #[arg(long)]
    mobile_link: Option<String>,
    #[arg(long)]
    desktop_link: Option<String>,
    #[arg(long)]
    webapp_link: Option<String>,
    /// Listing order, smaller first (default: after the others).
    #[arg(long)]
    order: Option<i64>,
}

#[derive(Subcommand)]
enum CatalogueAction {
    /// Import wallets from a JSON file in the Explorer API's format
    /// (`{"data": [...]}`, `{"listings": {...}}` or an array), with the images of
    /// a bundle's `"images": [...]` (`make catalogue` writes one); existing ids are replaced.
    Import {
        /// The file to read.
        file: PathBuf,
    },
    /// Add (or replace) an image served by /getWalletImage/{id} (kind wallet),
    /// /public/getAssetImage/{id} (asset), /public/getCurrencyImage/{id} (currency)
    /// or /public/getTokenImage/{id} (token).
    Image {
        /// wallet, asset, currency or token.
        #[arg(long)]
        kind: String,
        /// The id it is served under.
        #[arg(long)]
        id: String,
        /// An .svg, .png, .jpg, .webp or .gif file.
        file: PathBuf,
    },
    /// Add (or replace) one wallet.
    Add(Box<NewWallet>),
    /// List wallets (id, name, rdns).
    List,
    /// Remove a wallet.
    Remove {
        #[arg(long)]
        id: String,
    },
}

#[derive(Subcommand)]
enum ProjectAction {
    /// Add a project, or replace its allowed origins.
    Add {
        #[arg(long)]
        id: String,
        /// An allowed origin pattern, e.g. https://app.example.com or http://localhost:* (repeatable).
        #[arg(long = "origin")]
        origins: Vec<String>,
        /// Refuse analytics events for this project (the modal then sends none).
        #[arg(long)]
        no_analytics: bool,
    },
    /// List projects.
    List,
    /// Remove a project.
    Remove {
        #[arg(long)]
        id: String,
    },
}

/// Where the demo app is built (`make demo`), relative to the repository root.
const DEMO_DIST: &str = "apps/demo/dist";
/// Where the wallet frame is built (`npm run build -w @latch/vault`), relative to the repository root.
const VAULT_DIST: &str = "apps/vault/dist";
/// Reads the command line and the configuration, then runs the command on a
/// runtime of `worker_threads` workers (one per core unless set).
fn main() -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("LATCH_LOG").unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        // stdout carries only the "serving at" line that scripts read.
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let config = Config::read(&cli.config, Config::env())?;
    // The runtime is built here, not by `#[tokio::main]`, because its size is a setting.
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    runtime.enable_all();
    if let Some(threads) = config.worker_threads.filter(|n| *n > 0) {
        runtime.worker_threads(threads);
    }
    runtime.build()?.block_on(run(cli, config))
}

async fn run(cli: Cli, mut config: Config) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve { dev, port, static_dir } => {
            config.dev |= dev;
            config.port = port.unwrap_or(config.port);
            config.static_dir = static_dir.or(config.static_dir);
            if config.dev && config.static_dir.is_none() && Path::new(DEMO_DIST).join("index.html").exists() {
                config.static_dir = Some(DEMO_DIST.into());
            }
            if config.dev && config.embedded.vault_dir.is_none() && Path::new(VAULT_DIST).join("index.html").exists() {
                config.embedded.vault_dir = Some(VAULT_DIST.into());
            }
            serve(config.validated()?).await
        }
        Command::Project { action } => manage_projects(&config.validated()?, action).await,
        Command::Catalogue { action } => manage_catalogue(&config.validated()?, action).await,
    }
}

async fn serve(config: Config) -> anyhow::Result<()> {
    tracing::debug!(?config, "configuration");
    let state = AppState::new(config).await.context("opening state")?;
    state.gateway.spawn_ranking();
    state.spawn_indexers();
    let config = state.config.clone();
    if !config.dev {
        remove_dev_project(&state).await?;
    }
    if config.dev {
        latch_server::server::ensure_dev_project(&state).await?;
    }
    let stop_signal = shutdown_signal();
    let address = SocketAddr::new(config.host, config.port);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("binding {address}"))?;
    // Port 0 picks a free port; report the one actually bound.
    let url = format!("http://{}/", listener.local_addr()?);
    match &config.static_dir {
        Some(dir) => announce(&format!("latch serving {} and the API at {url}", dir.display())),
        None => announce(&format!("latch serving the API at {url}")),
    }
    for line in latch_server::startup::summary(&config, &url) {
        tracing::info!("{line}");
    }
    match (config.embedded.vault_listen, &config.embedded.vault_dir) {
        (Some(address), Some(dir)) => {
            let listener = tokio::net::TcpListener::bind(address)
                .await
                .with_context(|| format!("binding embedded.vault_listen {address}"))?;
            tracing::info!("wallet frame: {} at http://{}/", dir.display(), listener.local_addr()?);
            let vault = latch_server::embedded::frame::vault_app(state.clone(), dir.clone());
            tokio::spawn(async move {
                let vault = vault.into_make_service_with_connect_info::<SocketAddr>();
                if let Err(error) = axum::serve(listener, vault).await {
                    tracing::error!(%error, "wallet frame listener failed");
                }
            });
        }
        (Some(_), None) => tracing::warn!("no wallet frame served: build apps/vault (npm run build -w @latch/vault)"),
        _ => {}
    }
    if let Some(address) = config.metrics_address {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .with_context(|| format!("binding metrics_address {address}"))?;
        let metrics = latch_server::metrics_app::<()>(&state);
        tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, metrics).await {
                tracing::error!(%error, "metrics listener failed");
            }
        });
    }
    // Graceful: in-flight requests finish, but a client that never lets go
    // cannot hold the process past SHUTDOWN_GRACE.
    latch_server::server::serve(state, listener, stop_signal).await?;
    tracing::info!("stopped");
    Ok(())
}

/// The `demo` project `--dev` created (allowing any local origin, with a
/// published admin token beside it) must not outlive `--dev`: a later start
/// without `--dev` removes it. A project named `demo` with other origins is
/// the operator's own and is kept.
async fn remove_dev_project(state: &AppState) -> anyhow::Result<()> {
    let Some(project) = state.store.project(DEV_PROJECT).await? else {
        return Ok(());
    };
    if project.allowed_origins == DEV_ORIGINS.map(String::from) {
        state.store.remove_project(DEV_PROJECT).await?;
        tracing::warn!("removed the `demo` project left by a --dev start (it is for --dev only)");
    }
    Ok(())
}

/// A line for whoever started the server. A supervisor that stopped reading
/// stdout (closed pipe) must not bring the server down, so errors are ignored.
fn announce(line: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}").and_then(|()| stdout.flush());
}

/// Resolves on SIGINT or SIGTERM. The handlers are installed when this is
/// called, not when first awaited: a signal that arrives just after the
/// "serving" line must still shut down gracefully rather than kill.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let interrupt = signal(SignalKind::interrupt());
        let terminate = signal(SignalKind::terminate());
        async move {
            match (interrupt, terminate) {
                (Ok(mut interrupt), Ok(mut terminate)) => {
                    tokio::select! { _ = interrupt.recv() => {}, _ = terminate.recv() => {} }
                }
                _ => std::future::pending().await,
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

async fn manage_catalogue(config: &Config, action: CatalogueAction) -> anyhow::Result<()> {
    let store = store::open(&config.database_url()).await?;
    match action {
        CatalogueAction::Import { file } => {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            let wallets = catalogue::parse_catalogue(&text)?;
            let images = images::parse_images(&text)?;
            store.put_wallets(&catalogue::to_stored(&wallets)).await?;
            store.put_images(&images).await?;
            announce(&format!(
                "imported {} wallets and {} images from {}",
                wallets.len(),
                images.len(),
                file.display()
            ));
        }
        CatalogueAction::Image { kind, id, file } => {
            let name = file.display().to_string();
            let content_type = images::content_type_for(&name)
                .with_context(|| format!("{name}: not an .svg, .png, .jpg, .webp or .gif"))?;
            let data = std::fs::read(&file).with_context(|| format!("reading {name}"))?;
            let image =
                images::image(&kind, &id, content_type, data).map_err(|reason| anyhow::anyhow!("{name}: {reason}"))?;
            store.put_images(&[image]).await?;
            announce(&format!("image {kind}/{id} saved"));
        }
        CatalogueAction::Add(wallet) => {
            let NewWallet {
                id,
                name,
                rdns,
                chains,
                homepage,
                image_url,
                mobile_link,
                desktop_link,
                webapp_link,
                order,
            } = *wallet;
            let position = match order {
                Some(order) => order,
                None => store.wallets().await?.iter().map(|w| w.position + 1).max().unwrap_or(0),
            };
            let entry = serde_json::json!({
                "id": id, "name": name, "rdns": rdns, "chains": chains, "homepage": homepage,
                "image_url": image_url, "mobile_link": mobile_link, "desktop_link": desktop_link,
                "webapp_link": webapp_link, "order": position,
            });
            let wallets = catalogue::parse_catalogue(&serde_json::Value::Array(vec![entry]).to_string())?;
            store.put_wallets(&catalogue::to_stored(&wallets)).await?;
            announce(&format!("wallet {id} saved"));
        }
        CatalogueAction::List => {
            for wallet in store.wallets().await? {
                let parsed: Option<catalogue::Wallet> = serde_json::from_str(&wallet.data).ok();
                let rdns = parsed.and_then(|w| w.rdns).unwrap_or_default();
                announce(&format!("{}\t{}\t{}", wallet.id, wallet.name, rdns));
            }
        }
        CatalogueAction::Remove { id } => {
            if !store.remove_wallet(&id).await? {
                bail!("no wallet {id:?}");
            }
            announce(&format!("wallet {id} removed"));
        }
    }
    Ok(())
}

async fn manage_projects(config: &Config, action: ProjectAction) -> anyhow::Result<()> {
    let store = store::open(&config.database_url()).await?;
    match action {
        ProjectAction::Add {
            id,
            origins,
            no_analytics,
        } => {
            if !is_valid_project_id(&id) {
                bail!("project id {id:?} must be 1-64 characters of A-Z, a-z, 0-9, _ and -");
            }
            for origin in &origins {
                check_origin_pattern(origin)?;
            }
            store
                .put_project(&Project {
                    id: id.clone(),
                    allowed_origins: origins,
                    created_at: latch_server::now_ms() / 1000,
                    analytics_enabled: !no_analytics,
                })
                .await?;
            println!("project {id} saved");
        }
        ProjectAction::List => {
            for project in store.projects().await? {
                println!("{}\t{}", project.id, project.allowed_origins.join(" "));
            }
        }
        ProjectAction::Remove { id } => {
            if !store.remove_project(&id).await? {
                bail!("no project {id:?}");
            }
            println!("project {id} removed");
        }
    }
    Ok(())
}
