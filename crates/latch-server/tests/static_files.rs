//! The web app `latch serve --static-dir` serves: precompressed siblings
//! (`.br`, `.gz`) to clients that accept them, the file itself to others, and
//! `index.html` for unknown paths.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::state_with;
use http_body_util::BodyExt;
use latch_server::app;
use tower::ServiceExt;

async fn fetch(router: &axum::Router, path: &str, accept: Option<&str>) -> (StatusCode, Option<String>, Vec<u8>) {
    let mut request = Request::get(path);
    if let Some(accept) = accept {
        request = request.header(header::ACCEPT_ENCODING, accept);
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let encoding = response
        .headers()
        .get(header::CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap().to_owned());
    let status = response.status();
    (
        status,
        encoding,
        response.into_body().collect().await.unwrap().to_bytes().to_vec(),
    )
}

#[tokio::test]
async fn serves_precompressed_files_to_clients_that_accept_them() {
    let site = tempfile::tempdir().unwrap();
    std::fs::write(site.path().join("index.html"), "<!doctype html>app").unwrap();
    std::fs::write(site.path().join("app.js"), "console.log('plain')").unwrap();
    std::fs::write(site.path().join("app.js.br"), b"brotli bytes").unwrap();
    std::fs::write(site.path().join("app.js.gz"), b"gzip bytes").unwrap();
    let dir = site.path().to_owned();
    let (state, _data) = state_with(vec![common::dead_upstream()], |config| config.static_dir = Some(dir)).await;
    let router = app(state);

    assert_eq!(
        fetch(&router, "/app.js", Some("gzip, deflate, br")).await,
        (StatusCode::OK, Some("br".into()), b"brotli bytes".to_vec())
    );
    assert_eq!(
        fetch(&router, "/app.js", Some("gzip")).await,
        (StatusCode::OK, Some("gzip".into()), b"gzip bytes".to_vec())
    );
    assert_eq!(
        fetch(&router, "/app.js", None).await,
        (StatusCode::OK, None, b"console.log('plain')".to_vec())
    );
    let (status, _, body) = fetch(&router, "/some/client/route", None).await;
    assert_eq!((status, body), (StatusCode::OK, b"<!doctype html>app".to_vec()));
}
