//! The real mail path: a real SMTP server (npm `smtp-server`, started from
//! `e2e/infra/smtp-sink.mjs`, installed by `scripts/setup`), `latch` sending to
//! it with lettre, and the code read back from the mail it received.

mod common;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use latch_server::app;
use latch_server::config::Secret;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader, Lines};
use tokio::process::{Child, ChildStdout, Command};
use tower::ServiceExt;

struct Sink {
    port: u16,
    lines: Lines<BufReader<ChildStdout>>,
    _child: Child,
}

impl Sink {
    async fn start() -> Sink {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let script = root.join("e2e/infra/smtp-sink.mjs");
        assert!(
            root.join("node_modules/smtp-server").exists(),
            "npm smtp-server is not installed: run scripts/setup (this test needs a real SMTP server)"
        );
        let mut child = Command::new("node")
            .arg(&script)
            .arg("0")
            .current_dir(&root)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("node could not start {} ({e}): install Node.js >= 20", script.display()));
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let first = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
            .await
            .expect("the SMTP sink listens within 10 s")
            .unwrap()
            .expect("the SMTP sink printed its port");
        let port = serde_json::from_str::<Value>(&first).unwrap()["listening"]
            .as_u64()
            .unwrap() as u16;
        Sink {
            port,
            lines,
            _child: child,
        }
    }

    async fn next_mail(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.lines.next_line())
            .await
            .expect("a mail within 10 s")
            .unwrap()
            .expect("the sink is running");
        serde_json::from_str(&line).unwrap()
    }
}

async fn call(router: &axum::Router, uri: &str, body: Value) -> (StatusCode, Value) {
    let request = Request::post(uri)
        .header(header::ORIGIN, "http://127.0.0.1:5173")
        .body(Body::from(body.to_string()))
        .unwrap();
    common::call(router, request).await
}

#[tokio::test]
async fn a_code_sent_over_smtp_logs_in() {
    let mut sink = Sink::start().await;
    let port = sink.port;
    let (state, _dir) = common::state_with(vec![common::dead_upstream()], |config| {
        config.embedded.smtp_url = Some(Secret(format!("smtp://127.0.0.1:{port}")));
        config.embedded.mail_from = "Latch Test <login@latch.test>".into();
    })
    .await;
    let router = app(state);
    let device = "smtp-device-0123456789";
    let (status, body) = call(
        &router,
        "/v1/embedded/email/start?projectId=test",
        json!({"email": "kim@example.com", "deviceId": device}),
    )
    .await;
    assert_eq!((status, body), (StatusCode::OK, json!({"action": "VERIFY_OTP"})));
    let mail = sink.next_mail().await;
    assert_eq!(mail["from"], "login@latch.test");
    assert_eq!(mail["to"], json!(["kim@example.com"]));
    let data = mail["data"].as_str().unwrap();
    assert!(data.contains("Your code for test: "), "{data}");
    assert!(
        !data.to_ascii_lowercase().contains("<img"),
        "no tracking: plain text only"
    );
    let subject = data.lines().find_map(|l| l.strip_prefix("Subject: ")).unwrap();
    let code = &subject[..6];
    assert!(code.bytes().all(|b| b.is_ascii_digit()), "{subject}");
    assert!(data.contains(&format!("Your code for test: {code}")));

    let (status, body) = call(
        &router,
        "/v1/embedded/email/verify?projectId=test",
        json!({"email": "kim@example.com", "otp": code, "deviceId": device}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["token"].as_str().unwrap().len(), 64);
    assert_eq!(body["user"]["email"], "kim@example.com");

    // Not in --dev: there is no outbox to read.
    let response = router
        .clone()
        .oneshot(Request::get("/v1/embedded/dev/outbox").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn without_smtp_outside_dev_login_says_so() {
    let (state, _dir) = common::state(vec![common::dead_upstream()]).await;
    let (status, body) = call(
        &app(state),
        "/v1/embedded/email/start?projectId=test",
        json!({"email": "kim@example.com", "deviceId": "smtp-device-0123456789"}),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("EMAIL_NOT_CONFIGURED"))
    );
}
