//! The `latch` binary itself: `serve --dev` on a real socket, the `project`
//! commands, and state kept in SQLite under LATCH_DATA_DIR across restarts.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

struct Server {
    child: Child,
    url: String,
}

fn latch(data_dir: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_latch"));
    command
        .env("LATCH_DATA_DIR", data_dir)
        .env("LATCH_CONFIG", data_dir.join("absent.toml"))
        .env("LATCH_LOG", "warn")
        // --dev serves the demo from the working directory when built; keep tests independent of that.
        .current_dir(data_dir);
    command
}

fn serve(data_dir: &std::path::Path, static_dir: Option<&std::path::Path>) -> Server {
    let mut command = latch(data_dir);
    command.args(["serve", "--dev", "--port", "0"]);
    if let Some(dir) = static_dir {
        command.arg("--static-dir").arg(dir);
    }
    start(command)
}

/// Spawns a `serve` command and reads the URL it prints.
fn start(mut command: Command) -> Server {
    let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .last()
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_owned();
    Server { child, url }
}

impl Server {
    /// SIGTERM, as Ctrl-C in `make demo` or a supervisor would stop it.
    fn stop(mut self) {
        Command::new("kill").arg(self.child.id().to_string()).status().unwrap();
        assert!(self.child.wait().unwrap().success(), "latch exits cleanly on SIGTERM");
    }
}

impl Drop for Server {
    // A failed assertion must not leave a server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run(command: &mut Command) -> Output {
    command.output().unwrap()
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[tokio::test]
async fn dev_server_keeps_its_state_across_restarts() {
    let data = tempfile::tempdir().unwrap();
    let http = reqwest::Client::new();

    let server = serve(data.path(), None);
    let chains: serde_json::Value = http
        .get(format!("{}/v1/supported-chains?projectId=demo", server.url))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        chains,
        serde_json::json!({
            "http": ["eip155:31337", "solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh"],
            "ws": ["eip155:31337", "solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh"]
        }),
        "--dev serves the EVM and the Solana devnets"
    );
    server.stop();

    assert!(
        data.path().join("latch.db").exists(),
        "SQLite lives under LATCH_DATA_DIR"
    );
    let added = run(latch(data.path()).args(["project", "add", "--id", "shop", "--origin", "https://shop.example"]));
    assert!(added.status.success(), "{}", text(&added));
    let refused = run(latch(data.path()).args(["project", "add", "--id", "bad", "--origin", "shop.example"]));
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("must look like https://app.example.com"),
        "{}",
        text(&refused)
    );

    let server = serve(data.path(), None);
    let status = |project: &'static str| {
        let url = format!("{}/v1/supported-chains?projectId={project}", server.url);
        let http = http.clone();
        async move { http.get(url).send().await.unwrap().status().as_u16() }
    };
    assert_eq!(
        status("shop").await,
        200,
        "a project added while stopped is served after restart"
    );
    assert_eq!(status("demo").await, 200);
    assert_eq!(status("bad").await, 401);
    server.stop();

    let listed = run(latch(data.path()).args(["project", "list"]));
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout),
        "demo\thttp://127.0.0.1:* http://localhost:*\nshop\thttps://shop.example\n"
    );
    let removed = run(latch(data.path()).args(["project", "remove", "--id", "shop"]));
    assert!(removed.status.success());
    let again = run(latch(data.path()).args(["project", "remove", "--id", "shop"]));
    assert!(text(&again).contains("no project \"shop\""));
}

#[tokio::test]
async fn serves_a_web_app_at_the_root() {
    let data = tempfile::tempdir().unwrap();
    let site = tempfile::tempdir().unwrap();
    std::fs::write(site.path().join("index.html"), "<!doctype html><title>demo</title>").unwrap();
    std::fs::write(site.path().join("app.js"), "console.log(1)").unwrap();
    let server = serve(data.path(), Some(site.path()));
    let get = |path: &str| reqwest::get(format!("{}{path}", server.url));
    let index = get("/").await.unwrap();
    assert_eq!(index.status(), 200);
    assert!(index.text().await.unwrap().contains("<title>demo</title>"));
    assert_eq!(get("/app.js").await.unwrap().text().await.unwrap(), "console.log(1)");
    assert!(get("/some/client/route")
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
        .contains("<title>demo</title>"));
    let api_miss = get("/v1/nope").await.unwrap();
    assert_eq!(api_miss.status(), 404);
    assert_eq!(api_miss.json::<serde_json::Value>().await.unwrap()["code"], "NOT_FOUND");
    let wrong_method = reqwest::Client::new()
        .delete(format!("{}/v1/supported-chains", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_method.status(), 405);
    assert_eq!(
        wrong_method.json::<serde_json::Value>().await.unwrap()["code"],
        "METHOD_NOT_ALLOWED"
    );
    server.stop();
}

/// Settings are checked after the command line applies: a social login needs the frame's
/// origin, which only `--dev` supplies (from `--port`), so reading it from the file alone failed.
#[tokio::test]
async fn command_line_applies_before_the_settings_are_checked() {
    let data = tempfile::tempdir().unwrap();
    let social = r#"{social=[{id="google", client_id="latch-test", client_secret="latch-test-secret"}]}"#;
    let refused = run(latch(data.path())
        .env("LATCH_EMBEDDED", social)
        .args(["project", "list"]));
    assert!(
        !refused.status.success(),
        "outside --dev a social login needs vault_origin"
    );
    assert!(text(&refused).contains("vault_origin"), "{}", text(&refused));

    let mut command = latch(data.path());
    command
        .env("LATCH_EMBEDDED", social)
        .args(["serve", "--dev", "--port", "0"]);
    let server = start(command);
    let config: serde_json::Value = reqwest::get(format!(
        "{}/v1/embedded/frame-config?projectId=demo&origin=http://localhost:5173",
        server.url
    ))
    .await
    .unwrap()
    .json()
    .await
    .unwrap();
    assert_eq!(config["socials"], serde_json::json!(["google"]), "{config}");
    server.stop();
}

#[tokio::test]
async fn catalogue_commands_feed_get_wallets() {
    let data = tempfile::tempdir().unwrap();
    let file = data.path().join("wallets.json");
    std::fs::write(
        &file,
        r#"{"count": 2, "data": [
            {"id": "mm", "name": "MetaMask", "rdns": "io.metamask", "chains": ["eip155:1"], "order": 1, "image_id": "mm"},
            {"id": "rb", "name": "Rainbow", "rdns": "me.rainbow", "chains": ["eip155:1", "eip155:10"], "order": 2}
        ], "images": [{"kind": "wallet", "id": "mm", "contentType": "image/svg+xml", "data": "PHN2Zy8+"}]}"#,
    )
    .unwrap();
    let imported = run(latch(data.path()).args(["catalogue", "import"]).arg(&file));
    assert_eq!(
        String::from_utf8_lossy(&imported.stdout).trim(),
        format!("imported 2 wallets and 1 images from {}", file.display())
    );
    let png = data.path().join("usdc.png");
    std::fs::write(&png, b"\x89PNG fixture bytes").unwrap();
    let saved = run(latch(data.path())
        .args(["catalogue", "image", "--kind", "token", "--id", "USDC"])
        .arg(&png));
    assert_eq!(
        String::from_utf8_lossy(&saved.stdout).trim(),
        "image token/USDC saved",
        "{}",
        text(&saved)
    );
    let refused = run(latch(data.path())
        .args(["catalogue", "image", "--kind", "icon", "--id", "x"])
        .arg(&png));
    assert!(
        text(&refused).contains("kind must be one of wallet, asset, currency, token"),
        "{}",
        text(&refused)
    );
    let added = run(latch(data.path()).args([
        "catalogue",
        "add",
        "--id",
        "dev",
        "--name",
        "Latch Dev Wallet",
        "--chain",
        "eip155:31337",
    ]));
    assert!(added.status.success(), "{}", text(&added));
    let refused = run(latch(data.path()).args(["catalogue", "add", "--id", "bad", "--name", "Bad", "--chain", "x"]));
    assert!(
        text(&refused).contains("chain \"x\": Invalid CAIP-2 network id"),
        "{}",
        text(&refused)
    );
    let listed = run(latch(data.path()).args(["catalogue", "list"]));
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout),
        "mm\tMetaMask\tio.metamask\nrb\tRainbow\tme.rainbow\ndev\tLatch Dev Wallet\t\n"
    );

    let server = serve(data.path(), None);
    let wallets = |query: &str| {
        let url = format!("{}/getWallets?projectId=demo&{query}", server.url);
        async move {
            reqwest::get(url)
                .await
                .unwrap()
                .json::<serde_json::Value>()
                .await
                .unwrap()
        }
    };
    let all = wallets("").await;
    assert_eq!(all["count"], 3);
    assert_eq!(all["data"][2]["name"], "Latch Dev Wallet");
    let found = wallets("search=rain").await;
    assert_eq!(
        (found["count"].as_u64(), found["data"][0]["id"].as_str()),
        (Some(1), Some("rb"))
    );
    assert_eq!(wallets("chains=eip155:10").await["data"][0]["rdns"], "me.rainbow");

    let client = reqwest::Client::new();
    let image = client
        .get(format!("{}/getWalletImage/mm?projectId=demo", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(image.status(), 200);
    assert_eq!(image.headers()["content-type"], "image/svg+xml");
    assert!(image.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age=604800"));
    let etag = image.headers()["etag"].clone();
    assert_eq!(image.bytes().await.unwrap().as_ref(), b"<svg/>");
    let revalidated = client
        .get(format!("{}/getWalletImage/mm?projectId=demo", server.url))
        .header("if-none-match", etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(revalidated.headers()["etag"], etag);
    let token = client
        .get(format!("{}/public/getTokenImage/USDC?projectId=demo", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(token.headers()["content-type"], "image/png");
    assert_eq!(token.bytes().await.unwrap().as_ref(), b"\x89PNG fixture bytes");
    for (path, status, code) in [
        ("/public/getTokenImage/NOPE?projectId=demo", 404, "NOT_FOUND"),
        ("/public/getCurrencyImage/USDC?projectId=demo", 404, "NOT_FOUND"),
        ("/public/getAssetImage/a%20b?projectId=demo", 400, "BAD_REQUEST"),
        ("/getWalletImage/mm?projectId=nope", 401, "INVALID_PROJECT_ID"),
    ] {
        let answer = client.get(format!("{}{path}", server.url)).send().await.unwrap();
        assert_eq!(answer.status(), status, "{path}");
        assert_eq!(
            answer.json::<serde_json::Value>().await.unwrap()["code"],
            code,
            "{path}"
        );
    }
    server.stop();
}

#[tokio::test]
async fn dev_stays_on_loopback_and_its_demo_project_does_not_outlive_it() {
    let data = tempfile::tempdir().unwrap();
    let open = run(latch(data.path())
        .env("LATCH_HOST", "0.0.0.0")
        .args(["serve", "--dev", "--port", "0"]));
    assert!(!open.status.success());
    assert!(
        text(&open).contains("only listens on a loopback host, not 0.0.0.0"),
        "{}",
        text(&open)
    );
    let published = run(latch(data.path())
        .env("LATCH_ADMIN_TOKEN", "latch-dev-admin")
        .args(["serve", "--port", "0"]));
    assert!(
        text(&published).contains("published --dev token"),
        "{}",
        text(&published)
    );

    serve(data.path(), None).stop();
    let listed = run(latch(data.path()).args(["project", "list"]));
    assert!(String::from_utf8_lossy(&listed.stdout).starts_with("demo\t"));

    // A start without --dev removes it, then serves.
    let mut child = latch(data.path())
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.split_whitespace().last().unwrap().trim_end_matches('/').to_owned();
    let server = Server { child, url };
    let answer = reqwest::get(format!("{}/v1/supported-chains?projectId=demo", server.url))
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 401, "the demo project is gone");
    server.stop();
    let listed = run(latch(data.path()).args(["project", "list"]));
    assert_eq!(String::from_utf8_lossy(&listed.stdout), "");
}
