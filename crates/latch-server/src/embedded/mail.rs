//! Sending login mails: over SMTP (`embedded.smtp_url`, lettre with rustls), or
//! in `--dev` without SMTP into a bounded in-memory outbox the demo shows at
//! `GET /v1/embedded/dev/outbox`. Plain text only: no images, no links but the
//! device approval's, nothing that tells anyone when a mail is opened.

use std::collections::VecDeque;
use std::sync::Mutex;

use axum::http::StatusCode;
use lettre::message::Mailbox;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use serde::Serialize;
use utoipa::ToSchema;

use super::config::EmbeddedConfig;
use crate::error::ApiError;

/// A mail kept by the `--dev` outbox.
#[derive(Clone, Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMail {
    /// The recipient.
    pub to: String,
    /// The subject.
    pub subject: String,
    /// The text.
    pub text: String,
    /// Unix milliseconds.
    pub sent_at: i64,
}

enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    Outbox {
        mails: Mutex<VecDeque<OutboxMail>>,
        size: usize,
    },
    None,
}

/// The configured way out.
pub struct Mailer {
    from: Mailbox,
    transport: Transport,
}

impl Mailer {
    /// The mailer `config` describes (`dev` allows the outbox).
    pub fn new(config: &EmbeddedConfig, dev: bool) -> anyhow::Result<Self> {
        let from: Mailbox = config
            .mail_from
            .parse()
            .map_err(|e| anyhow::anyhow!("embedded.mail_from: {e}"))?;
        let transport = match (&config.smtp_url, dev) {
            (Some(url), _) => Transport::Smtp(
                AsyncSmtpTransport::<Tokio1Executor>::from_url(&url.0)
                    // The URL holds credentials: say what is wrong without it.
                    .map_err(|e| anyhow::anyhow!("embedded.smtp_url is not a usable SMTP URL: {e}"))?
                    .timeout(Some(std::time::Duration::from_secs(10)))
                    .build(),
            ),
            (None, true) => Transport::Outbox {
                mails: Mutex::default(),
                size: config.outbox_size,
            },
            (None, false) => Transport::None,
        };
        Ok(Self { from, transport })
    }

    /// Sends a plain-text mail.
    pub async fn send(&self, to: &str, subject: &str, text: String) -> Result<(), ApiError> {
        match &self.transport {
            Transport::Smtp(smtp) => {
                let to: Mailbox = to.parse().map_err(|_| ApiError::bad("email", "Invalid input"))?;
                let message = Message::builder()
                    .from(self.from.clone())
                    .to(to)
                    .subject(subject)
                    .header(lettre::message::header::ContentType::TEXT_PLAIN)
                    .body(text)
                    .map_err(|e| ApiError::Internal(e.into()))?;
                smtp.send(message).await.map_err(|e| {
                    // Never the text (it holds the code): only what failed.
                    tracing::warn!(error = %e, "sending a login mail failed");
                    ApiError::Refused {
                        status: StatusCode::SERVICE_UNAVAILABLE,
                        code: "EMAIL_UNAVAILABLE",
                        field: "email",
                        description: "the mail could not be sent; try again later".into(),
                    }
                })?;
                Ok(())
            }
            Transport::Outbox { mails, size } => {
                let mut mails = mails.lock().unwrap_or_else(|e| e.into_inner());
                if mails.len() >= *size {
                    mails.pop_front();
                }
                mails.push_back(OutboxMail {
                    to: to.to_owned(),
                    subject: subject.to_owned(),
                    text,
                    sent_at: crate::now_ms(),
                });
                Ok(())
            }
            Transport::None => Err(ApiError::Refused {
                status: StatusCode::SERVICE_UNAVAILABLE,
                code: "EMAIL_NOT_CONFIGURED",
                field: "email",
                description: "e-mail login is not configured on this server (embedded.smtp_url)".into(),
            }),
        }
    }

    /// The `--dev` outbox, newest last (`None` when mails go out over SMTP).
    pub fn outbox(&self) -> Option<Vec<OutboxMail>> {
        match &self.transport {
            Transport::Outbox { mails, .. } => Some(
                mails
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .iter()
                    .cloned()
                    .collect(),
            ),
            _ => None,
        }
    }
}
