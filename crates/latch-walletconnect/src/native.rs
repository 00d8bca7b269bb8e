//! The native platform (feature `native`): tokio-tungstenite sockets (tasks on
//! the caller's `LocalSet`, like the client itself), tokio
//! timers and reqwest for HTTP.

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use crate::io::{BodyKind, Clock, Http, Incoming, Socket, Transport};
use crate::task::{self, LocalBoxFuture};
use crate::{Error, Result};

/// WebSockets through tokio-tungstenite; each socket runs two local tasks (reader and writer).
#[derive(Debug, Clone, Copy, Default)]
pub struct TungsteniteTransport;

impl Transport for TungsteniteTransport {
    fn connect(&self, url: &str) -> LocalBoxFuture<'static, Result<Socket>> {
        let url = url.to_owned();
        Box::pin(async move {
            let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
                .await
                .map_err(|e| Error::Transport(e.to_string()))?;
            let (mut sink, mut stream) = socket.split();
            let (outgoing, mut to_send) = task::channel::<String>();
            let (received, incoming) = task::channel();
            tokio::task::spawn_local(async move {
                while let Some(text) = to_send.recv().await {
                    if sink.send(Message::text(text)).await.is_err() {
                        return;
                    }
                }
                // The client dropped its sender: close politely.
                let _ = sink.close().await;
            });
            tokio::task::spawn_local(async move {
                let closed = loop {
                    match stream.next().await {
                        Some(Ok(Message::Text(text))) => {
                            if received.send(Incoming::Text(text.to_string())).is_err() {
                                return;
                            }
                        }
                        Some(Ok(Message::Close(frame))) => {
                            break frame.map_or((1005, String::new()), |f| (f.code.into(), f.reason.to_string()))
                        }
                        // Pings are answered by tungstenite; binary frames are not part of the protocol.
                        Some(Ok(_)) => {}
                        Some(Err(e)) => break (1006, e.to_string()),
                        None => break (1006, String::new()),
                    }
                };
                let _ = received.send(Incoming::Closed {
                    code: closed.0,
                    reason: closed.1,
                });
            });
            Ok(Socket { outgoing, incoming })
        })
    }
}

/// System time and tokio timers.
#[derive(Debug, Clone, Copy, Default)]
pub struct TokioClock;

impl Clock for TokioClock {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms)))
    }
}

/// HTTP through reqwest (one connection pool per value; clones share it).
#[derive(Debug, Clone, Default)]
pub struct ReqwestHttp {
    client: reqwest::Client,
}

impl Http for ReqwestHttp {
    fn post(&self, url: &str, body: String, kind: BodyKind) -> LocalBoxFuture<'static, Result<String>> {
        let content_type = match kind {
            BodyKind::Json => "application/json",
            BodyKind::PlainText => "text/plain",
        };
        let request = self
            .client
            .post(url)
            .header(reqwest::header::CONTENT_TYPE, content_type)
            .body(body);
        Box::pin(async move {
            let response = request.send().await.map_err(|e| Error::Http(e.to_string()))?;
            let status = response.status();
            if !status.is_success() {
                return Err(Error::Http(format!("HTTP status code: {}", status.as_u16())));
            }
            response.text().await.map_err(|e| Error::Http(e.to_string()))
        })
    }
}
