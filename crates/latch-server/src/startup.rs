//! What `latch serve` tells its operator when it starts: a few lines a person
//! reads (where it listens, where data lives, which chains and parts are on),
//! instead of the whole configuration on one line (that stays at `debug`).

use crate::config::{Config, DEV_ADMIN_TOKEN};
use crate::outbound::redact_url;

/// The start-up summary for `config`, served at `url` (the address actually
/// bound, e.g. `http://127.0.0.1:8787/`). Nothing secret: store URLs print as
/// `scheme://host[:port]`, tokens not at all (only whether one is set).
pub fn summary(config: &Config, url: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mode = if config.dev { " (dev mode: loopback only)" } else { "" };
    lines.push(format!("latch {} at {url}{mode}", env!("CARGO_PKG_VERSION")));
    lines.push(match &config.database_url {
        Some(database) => format!("storage: {}", redact_url(&database.0)),
        None => format!("storage: SQLite in {}", config.data_dir.display()),
    });
    if let Some(redis) = &config.redis_url {
        lines.push(format!("shared limits and fan-out: {}", redact_url(&redis.0)));
    }
    lines.push(chains(config));
    if !config.index_chains.is_empty() {
        lines.push(format!("activity indexed on: {}", config.index_chains.join(", ")));
    }
    let project = if config.relay.requires_project(config.dev) {
        "known projects only"
    } else {
        "any project id"
    };
    lines.push(format!("relay: {url}relay ({project}); sign-in: {url}v1/siwx"));
    if let Some(dir) = &config.static_dir {
        lines.push(format!("static files: {}", dir.display()));
    }
    match &config.admin_token {
        Some(token) if token.0 == DEV_ADMIN_TOKEN => {
            lines.push(format!("dashboard: {url}dashboard (admin token {DEV_ADMIN_TOKEN})"))
        }
        Some(_) => lines.push(format!("dashboard: {url}dashboard (admin token set)")),
        None => lines.push("dashboard: off (set admin_token to open it)".into()),
    }
    lines.push(match (config.metrics_address, &config.metrics_token) {
        (Some(address), _) => format!("metrics: http://{address}/metrics"),
        (None, Some(_)) => format!("metrics: {url}metrics (token required)"),
        (None, None) if config.host.is_loopback() => format!("metrics: {url}metrics (loopback)"),
        (None, None) => "metrics: off (set metrics_token or metrics_address)".into(),
    });
    lines
}

fn chains(config: &Config) -> String {
    if config.chains.is_empty() {
        return "chains: none configured (the gateway refuses every chain)".into();
    }
    let list: Vec<String> = config
        .chains
        .iter()
        .map(|chain| {
            let upstreams: Vec<String> = chain.upstreams.iter().map(|url| redact_url(url)).collect();
            format!("{} via {}", chain.id, upstreams.join(", "))
        })
        .collect();
    format!("chains: {}", list.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{ChainConfig, Secret};

    fn chain(id: &str, upstream: &str) -> ChainConfig {
        serde_json::from_value(serde_json::json!({ "id": id, "upstreams": [upstream] })).unwrap()
    }

    #[test]
    fn a_default_start_says_where_it_listens_and_stores() {
        let config = Config::default();
        let lines = summary(&config, "http://127.0.0.1:8787/");
        assert!(lines[0].starts_with("latch ") && lines[0].ends_with("at http://127.0.0.1:8787/"));
        assert!(lines[1].starts_with("storage: SQLite in "), "{lines:?}");
        assert!(lines.contains(&"chains: none configured (the gateway refuses every chain)".to_owned()));
        assert!(lines.contains(
            &"relay: http://127.0.0.1:8787/relay (known projects only); sign-in: http://127.0.0.1:8787/v1/siwx"
                .to_owned()
        ));
        assert!(lines.contains(&"dashboard: off (set admin_token to open it)".to_owned()));
        assert!(lines.contains(&"metrics: http://127.0.0.1:8787/metrics (loopback)".to_owned()));
    }

    #[test]
    fn secrets_and_upstream_keys_never_appear() {
        let config = Config {
            database_url: Some(Secret("postgres://latch:hunter2@db.internal:5432/latch".into())),
            redis_url: Some(Secret("redis://:hunter2@cache.internal:6379".into())),
            admin_token: Some(Secret("admin-hunter2".into())),
            metrics_token: Some(Secret("metrics-hunter2".into())),
            host: "0.0.0.0".parse().unwrap(),
            chains: vec![chain("eip155:1", "https://rpc.example/v2/hunter2-key")],
            ..Config::default()
        };
        let text = summary(&config, "http://0.0.0.0:8787/").join("\n");
        assert!(!text.contains("hunter2"), "{text}");
        assert!(text.contains("storage: postgres://db.internal:5432"), "{text}");
        assert!(
            text.contains("shared limits and fan-out: redis://cache.internal:6379"),
            "{text}"
        );
        assert!(text.contains("chains: eip155:1 via https://rpc.example"), "{text}");
        assert!(
            text.contains("dashboard: http://0.0.0.0:8787/dashboard (admin token set)"),
            "{text}"
        );
        assert!(
            text.contains("metrics: http://0.0.0.0:8787/metrics (token required)"),
            "{text}"
        );
    }

    #[test]
    fn dev_mode_names_its_local_token() {
        let config = Config {
            dev: true,
            admin_token: Some(Secret(DEV_ADMIN_TOKEN.into())),
            ..Config::default()
        };
        let lines = summary(&config, "http://127.0.0.1:8787/");
        assert!(lines[0].ends_with("(dev mode: loopback only)"), "{lines:?}");
        assert!(lines.iter().any(|line| line.contains("(any project id)")), "{lines:?}");
        assert!(lines.contains(&format!(
            "dashboard: http://127.0.0.1:8787/dashboard (admin token {DEV_ADMIN_TOKEN})"
        )));
    }
}
