//! The relay's JSON-RPC: parsing a client frame into a [`Request`] (or an ack),
//! with every refusal a [`RelayError`] whose code and `data` are stable.

use serde::Deserialize;
use serde_json::{json, Value};

/// Largest batch of topics or subscriptions in one call.
pub const MAX_BATCH: usize = 500;

/// Why a request was refused. `code()` and `data()` are stable: clients match on them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RelayError {
    /// The frame is not JSON.
    #[error("Parse error")]
    Parse,
    /// JSON, but not a JSON-RPC 2.0 request.
    #[error("Invalid request: {0}")]
    InvalidRequest(String),
    /// A method this relay does not have.
    #[error("Method not found: {0}")]
    MethodNotFound(String),
    /// A missing or mistyped parameter.
    #[error("Invalid payload: {0}")]
    InvalidParams(String),
    /// A topic that is not 64 lowercase hex characters.
    #[error("Invalid payload: invalid topic {0:?}")]
    InvalidTopic(String),
    /// More than [`MAX_BATCH`] items.
    #[error("Invalid payload: batch of {0} exceeds {MAX_BATCH}")]
    BatchLimitExceeded(usize),
    /// `message` larger than configured.
    #[error("Invalid payload: message of {0} bytes exceeds {1}")]
    MessageTooLarge(usize, usize),
    /// TTL under the minimum.
    #[error("Request handler error: TTL too short")]
    TtlTooShort,
    /// TTL over the maximum.
    #[error("Request handler error: TTL too long")]
    TtlTooLong,
    /// The connection is subscribed to as many topics as it may be.
    #[error("Request handler error: subscriber limit exceeded ({0} topics)")]
    SubscriberLimitExceeded(usize),
    /// The topic's or the publisher's mailbox quota is spent.
    #[error("Request handler error: mailbox limit exceeded")]
    MailboxLimitExceeded,
    /// The connection's rate limit is spent.
    #[error("Too many requests")]
    TooManyRequests,
    /// Storage failed; the client should retry.
    #[error("Internal error")]
    Internal,
}

impl RelayError {
    /// The JSON-RPC error code.
    pub fn code(&self) -> i64 {
        match self {
            Self::Parse => -32700,
            Self::InvalidRequest(_)
            | Self::InvalidParams(_)
            | Self::InvalidTopic(_)
            | Self::BatchLimitExceeded(_)
            | Self::MessageTooLarge(..) => -32600,
            Self::MethodNotFound(_) => -32601,
            Self::TtlTooShort | Self::TtlTooLong | Self::SubscriberLimitExceeded(_) | Self::MailboxLimitExceeded => {
                -32000
            }
            Self::TooManyRequests => 3001,
            Self::Internal => -32603,
        }
    }

    /// The machine name sent as `error.data`.
    pub fn data(&self) -> &'static str {
        match self {
            Self::Parse => "ParseError",
            Self::InvalidRequest(_) => "InvalidRequest",
            Self::MethodNotFound(_) => "MethodNotFound",
            Self::InvalidParams(_) => "InvalidParams",
            Self::InvalidTopic(_) => "InvalidTopic",
            Self::BatchLimitExceeded(_) => "BatchLimitExceeded",
            Self::MessageTooLarge(..) => "MessageTooLarge",
            Self::TtlTooShort => "TtlTooShort",
            Self::TtlTooLong => "TtlTooLong",
            Self::SubscriberLimitExceeded(_) => "SubscriberLimitExceeded",
            Self::MailboxLimitExceeded => "MailboxLimitExceeded",
            Self::TooManyRequests => "TooManyRequests",
            Self::Internal => "InternalError",
        }
    }

    /// The error answer to request `id`.
    pub fn to_response(&self, id: &Value) -> String {
        json!({"id": id, "jsonrpc": "2.0", "error": {"code": self.code(), "message": self.to_string(), "data": self.data()}})
            .to_string()
    }
}

/// The `irn_subscription` request pushing `message` to a subscriber, as request
/// `id` under subscription id `subscription`. Serialised from borrowed fields:
/// this runs once per delivery, and a `json!` tree would copy the envelope twice.
pub fn subscription_frame(id: u64, subscription: &str, message: &crate::store::RelayMessage) -> String {
    #[derive(serde::Serialize)]
    struct Push<'a> {
        id: u64,
        jsonrpc: &'static str,
        method: &'static str,
        params: PushParams<'a>,
    }
    #[derive(serde::Serialize)]
    struct PushParams<'a> {
        id: &'a str,
        data: PushData<'a>,
    }
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct PushData<'a> {
        topic: &'a str,
        message: &'a str,
        published_at: i64,
        tag: i64,
        attestation: Option<&'a str>,
    }
    let push = Push {
        id,
        jsonrpc: "2.0",
        method: "irn_subscription",
        params: PushParams {
            id: subscription,
            data: PushData {
                topic: &message.topic,
                message: &message.message,
                published_at: message.published_at,
                tag: message.tag,
                attestation: None,
            },
        },
    };
    // Plain strings and numbers: serialising cannot fail.
    serde_json::to_string(&push).unwrap_or_default()
}

/// A publish, as asked for (extra fields such as `prompt` or `tvf` are ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Publish {
    /// Where.
    pub topic: String,
    /// The envelope.
    pub message: String,
    /// Seconds to keep it.
    pub ttl: u64,
    /// The publisher's tag.
    pub tag: i64,
}

/// A client request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// `irn_publish`.
    Publish(Publish),
    /// `irn_subscribe` / `irn_batchSubscribe` (`batch` says which answer shape).
    Subscribe { topics: Vec<String>, batch: bool },
    /// `irn_unsubscribe` / `irn_batchUnsubscribe`.
    Unsubscribe { topics: Vec<String> },
    /// `irn_fetchMessages` / `irn_batchFetchMessages`.
    Fetch { topics: Vec<String> },
    /// `wc_proposeSession`: subscribe to the pairing topic, publish the proposal there.
    ProposeSession { pairing_topic: String, proposal: Publish },
    /// `wc_approveSession`: subscribe to the session topic, publish the proposal
    /// response on the pairing topic and the settlement on the session topic.
    ApproveSession {
        session_topic: String,
        response: Publish,
        settlement: Publish,
    },
}

/// A parsed client frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// A request with its id (echoed exactly).
    Request(Value, Request),
    /// An answer to one of our `irn_subscription` pushes: an ack.
    Ack(Option<u64>),
}

/// Limits a request is checked against.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Shortest TTL, seconds.
    pub min_ttl: u64,
    /// Longest TTL, seconds.
    pub max_ttl: u64,
    /// Largest `message`, bytes.
    pub max_message: usize,
}

/// Whether `topic` is 32 bytes as 64 lowercase hex characters.
pub fn is_topic(topic: &str) -> bool {
    topic.len() == 64 && topic.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether `text` uses only base64 characters (standard or url-safe alphabet, `=` padding).
pub fn is_base64(text: &str) -> bool {
    text.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_' | b'='))
}

/// The TTL of the Sign protocol's composite publishes when the client names none.
const COMPOSITE_TTL: u64 = 300;

/// Parses one text frame. `Err` carries the id to answer (null when unknown).
pub fn parse(text: &str, limits: &Limits) -> Result<Frame, (Value, RelayError)> {
    let value: Value = serde_json::from_str(text).map_err(|_| (Value::Null, RelayError::Parse))?;
    let Value::Object(object) = value else {
        return Err((Value::Null, RelayError::InvalidRequest("expected an object".into())));
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    let Some(method) = object.get("method") else {
        if object.contains_key("result") || object.contains_key("error") {
            return Ok(Frame::Ack(ack_id(&id)));
        }
        return Err((id, RelayError::InvalidRequest("missing method".into())));
    };
    let fail = |e: RelayError| (id.clone(), e);
    if !matches!(id, Value::String(_) | Value::Number(_)) {
        return Err(fail(RelayError::InvalidRequest(
            "id must be a string or a number".into(),
        )));
    }
    let method = method
        .as_str()
        .ok_or_else(|| fail(RelayError::InvalidRequest("method must be a string".into())))?;
    let params = object.get("params").cloned().unwrap_or(Value::Null);
    let request = request(method, &params, limits).map_err(fail)?;
    Ok(Frame::Request(id, request))
}

/// The numeric id of an answer: a number, or its text (with safe-json's BigInt `n` suffix).
fn ack_id(id: &Value) -> Option<u64> {
    match id {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.strip_suffix('n').unwrap_or(s).parse().ok(),
        _ => None,
    }
}

#[derive(Deserialize)]
struct PublishParams {
    topic: String,
    message: String,
    ttl: u64,
    #[serde(default)]
    tag: i64,
}

#[derive(Deserialize)]
struct TopicParams {
    topic: String,
}

#[derive(Deserialize)]
struct TopicsParams {
    topics: Vec<String>,
}

#[derive(Deserialize)]
struct Subscription {
    topic: String,
}

#[derive(Deserialize)]
struct SubscriptionsParams {
    subscriptions: Vec<Subscription>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ProposeParams {
    pairing_topic: String,
    session_proposal: String,
    ttl: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ApproveParams {
    session_topic: String,
    pairing_topic: String,
    session_proposal_response: String,
    session_settlement_request: String,
    ttl: Option<u64>,
}

fn params<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, RelayError> {
    T::deserialize(value).map_err(|e| RelayError::InvalidParams(e.to_string()))
}

fn topic(topic: String) -> Result<String, RelayError> {
    if is_topic(&topic) {
        Ok(topic)
    } else {
        Err(RelayError::InvalidTopic(topic.chars().take(80).collect()))
    }
}

fn topics(list: Vec<String>) -> Result<Vec<String>, RelayError> {
    if list.len() > MAX_BATCH {
        return Err(RelayError::BatchLimitExceeded(list.len()));
    }
    list.into_iter().map(topic).collect()
}

fn publish(topic_: String, message: String, ttl: u64, tag: i64, limits: &Limits) -> Result<Publish, RelayError> {
    let topic_ = topic(topic_)?;
    if message.len() > limits.max_message {
        return Err(RelayError::MessageTooLarge(message.len(), limits.max_message));
    }
    if message.is_empty() {
        return Err(RelayError::InvalidParams("message is empty".into()));
    }
    // Envelopes are base64 (the official clients' standard alphabet; url-safe
    // tolerated): nothing else, NUL bytes included, reaches the mailbox, where one
    // unstorable message would fail its whole group commit.
    if !is_base64(&message) {
        return Err(RelayError::InvalidParams("message is not base64".into()));
    }
    if ttl < limits.min_ttl {
        return Err(RelayError::TtlTooShort);
    }
    if ttl > limits.max_ttl {
        return Err(RelayError::TtlTooLong);
    }
    Ok(Publish {
        topic: topic_,
        message,
        ttl,
        tag,
    })
}

fn request(method: &str, value: &Value, limits: &Limits) -> Result<Request, RelayError> {
    Ok(match method {
        "irn_publish" => {
            let p: PublishParams = params(value)?;
            Request::Publish(publish(p.topic, p.message, p.ttl, p.tag, limits)?)
        }
        "irn_subscribe" => Request::Subscribe {
            topics: vec![topic(params::<TopicParams>(value)?.topic)?],
            batch: false,
        },
        "irn_batchSubscribe" => Request::Subscribe {
            topics: topics(params::<TopicsParams>(value)?.topics)?,
            batch: true,
        },
        "irn_unsubscribe" => Request::Unsubscribe {
            topics: vec![topic(params::<TopicParams>(value)?.topic)?],
        },
        "irn_batchUnsubscribe" => {
            let subscriptions = params::<SubscriptionsParams>(value)?.subscriptions;
            Request::Unsubscribe {
                topics: topics(subscriptions.into_iter().map(|s| s.topic).collect())?,
            }
        }
        "irn_fetchMessages" => Request::Fetch {
            topics: vec![topic(params::<TopicParams>(value)?.topic)?],
        },
        "irn_batchFetchMessages" => Request::Fetch {
            topics: topics(params::<TopicsParams>(value)?.topics)?,
        },
        "wc_proposeSession" => {
            let p: ProposeParams = params(value)?;
            let ttl = p.ttl.unwrap_or(COMPOSITE_TTL);
            Request::ProposeSession {
                pairing_topic: topic(p.pairing_topic.clone())?,
                proposal: publish(p.pairing_topic, p.session_proposal, ttl, 1100, limits)?,
            }
        }
        "wc_approveSession" => {
            let p: ApproveParams = params(value)?;
            let ttl = p.ttl.unwrap_or(COMPOSITE_TTL);
            Request::ApproveSession {
                session_topic: topic(p.session_topic.clone())?,
                response: publish(p.pairing_topic, p.session_proposal_response, ttl, 1101, limits)?,
                settlement: publish(p.session_topic, p.session_settlement_request, ttl, 1102, limits)?,
            }
        }
        other => return Err(RelayError::MethodNotFound(other.chars().take(80).collect())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const LIMITS: Limits = Limits {
        min_ttl: 10,
        max_ttl: 86_400 * 30,
        max_message: 1024,
    };

    fn t(c: char) -> String {
        c.to_string().repeat(64)
    }

    #[test]
    fn subscription_frame_is_the_clients_push() {
        let message = crate::store::RelayMessage {
            id: 7,
            topic: t('a'),
            hash: t('b'),
            message: "AAE=\"quoted\"".into(),
            tag: 1108,
            publisher: "did:key:z".into(),
            published_at: 1_700_000_000_000,
            expires_at: 1_700_000_300_000,
        };
        let frame: Value = serde_json::from_str(&subscription_frame(42, "sub", &message)).unwrap();
        assert_eq!(
            frame,
            json!({"id": 42, "jsonrpc": "2.0", "method": "irn_subscription", "params": {"id": "sub",
                "data": {"topic": t('a'), "message": "AAE=\"quoted\"", "publishedAt": 1_700_000_000_000_i64,
                         "tag": 1108, "attestation": null}}})
        );
    }

    #[test]
    fn parses_the_clients_requests() {
        let frame = parse(
            &format!(
                r#"{{"id":"1700000000000123456","jsonrpc":"2.0","method":"irn_publish","params":{{"topic":"{}","message":"AAE=","ttl":300,"tag":1100,"prompt":true,"tvf":{{"x":1}},"attestation":null}}}}"#,
                t('a')
            ),
            &LIMITS,
        )
        .unwrap();
        assert_eq!(
            frame,
            Frame::Request(
                json!("1700000000000123456"),
                Request::Publish(Publish {
                    topic: t('a'),
                    message: "AAE=".into(),
                    ttl: 300,
                    tag: 1100
                })
            )
        );
        let frame = parse(
            &format!(
                r#"{{"id":2,"jsonrpc":"2.0","method":"irn_batchUnsubscribe","params":{{"subscriptions":[{{"topic":"{}","id":"x"}}]}}}}"#,
                t('b')
            ),
            &LIMITS,
        )
        .unwrap();
        assert_eq!(
            frame,
            Frame::Request(json!(2), Request::Unsubscribe { topics: vec![t('b')] })
        );
        let frame = parse(
            &format!(
                r#"{{"id":3,"jsonrpc":"2.0","method":"wc_approveSession","params":{{"sessionTopic":"{}","pairingTopic":"{}","sessionProposalResponse":"r","sessionSettlementRequest":"s","correlationId":1,"approvedChains":["eip155:1"]}}}}"#,
                t('c'),
                t('d')
            ),
            &LIMITS,
        )
        .unwrap();
        let Frame::Request(
            _,
            Request::ApproveSession {
                session_topic,
                response,
                settlement,
            },
        ) = frame
        else {
            panic!("{frame:?}")
        };
        assert_eq!(session_topic, t('c'));
        assert_eq!((response.topic, response.tag, response.ttl), (t('d'), 1101, 300));
        assert_eq!((settlement.topic, settlement.tag), (t('c'), 1102));
    }

    #[test]
    fn acks() {
        assert_eq!(
            parse(r#"{"id":1000000000001,"jsonrpc":"2.0","result":true}"#, &LIMITS),
            Ok(Frame::Ack(Some(1000000000001)))
        );
        assert_eq!(
            parse(r#"{"id":"1000000000001n","jsonrpc":"2.0","result":true}"#, &LIMITS),
            Ok(Frame::Ack(Some(1000000000001)))
        );
        assert_eq!(
            parse(r#"{"id":"x","jsonrpc":"2.0","error":{}}"#, &LIMITS),
            Ok(Frame::Ack(None))
        );
    }

    #[test]
    fn refusals_have_stable_codes() {
        let code = |text: &str| parse(text, &LIMITS).unwrap_err().1.code();
        let publish = |topic: &str, message: &str, ttl: u64| {
            format!(
                r#"{{"id":1,"jsonrpc":"2.0","method":"irn_publish","params":{{"topic":"{topic}","message":"{message}","ttl":{ttl}}}}}"#
            )
        };
        assert_eq!(code("{"), -32700);
        assert_eq!(code("[]"), -32600);
        assert_eq!(
            code(r#"{"id":1,"jsonrpc":"2.0","method":"irn_nope","params":{}}"#),
            -32601
        );
        assert_eq!(code(&publish("abc", "x", 300)), -32600);
        assert_eq!(
            code(&publish(&t('A'), "x", 300)),
            -32600,
            "upper-case hex is not a topic"
        );
        assert_eq!(code(&publish(&t('a'), "x", 0)), -32000);
        assert_eq!(code(&publish(&t('a'), "x", 86_400 * 31)), -32000);
        assert_eq!(code(&publish(&t('a'), &"x".repeat(1025), 300)), -32600);
        assert_eq!(
            code(&publish(&t('a'), "AA\\u0000AA", 300)),
            -32600,
            "a NUL byte is not base64"
        );
        assert_eq!(
            parse(&publish(&t('a'), "not base64!", 300), &LIMITS)
                .unwrap_err()
                .1
                .data(),
            "InvalidParams"
        );
        assert_eq!(RelayError::MailboxLimitExceeded.code(), -32000);
        assert_eq!(RelayError::SubscriberLimitExceeded(3).data(), "SubscriberLimitExceeded");
        assert_eq!(
            code(r#"{"id":1,"jsonrpc":"2.0","method":"irn_subscribe","params":{}}"#),
            -32600
        );
        let batch = serde_json::to_string(&vec![t('a'); 501]).unwrap();
        let err = parse(
            &format!(r#"{{"id":1,"jsonrpc":"2.0","method":"irn_batchSubscribe","params":{{"topics":{batch}}}}}"#),
            &LIMITS,
        )
        .unwrap_err();
        assert_eq!(err, (json!(1), RelayError::BatchLimitExceeded(501)));
        assert_eq!(
            parse(&publish(&t('a'), "x", 0), &LIMITS).unwrap_err().1.data(),
            "TtlTooShort"
        );
        let answer: Value = serde_json::from_str(&RelayError::TtlTooShort.to_response(&json!("7"))).unwrap();
        assert_eq!(
            answer,
            json!({"id":"7","jsonrpc":"2.0","error":{"code":-32000,"message":"Request handler error: TTL too short","data":"TtlTooShort"}})
        );
    }

    proptest! {
        #[test]
        fn never_panics(text in ".{0,300}") {
            let _ = parse(&text, &LIMITS);
        }

        #[test]
        fn only_base64_messages_are_published(message in ".{1,64}") {
            let text = json!({"id": 1, "jsonrpc": "2.0", "method": "irn_publish", "params": {"topic": t('a'), "message": message, "ttl": 300}}).to_string();
            let parsed = parse(&text, &LIMITS);
            prop_assert_eq!(parsed.is_ok(), is_base64(&message));
            prop_assert!(parsed.is_err() || !message.contains('\0'));
        }

        #[test]
        fn never_panics_on_json_shapes(method in "(irn_|wc_)[a-zA-Z]{0,20}", params in prop::collection::hash_map("[a-zA-Z]{1,12}", any::<i64>(), 0..5)) {
            let text = json!({"id": 1, "jsonrpc": "2.0", "method": method, "params": params}).to_string();
            let _ = parse(&text, &LIMITS);
        }

        #[test]
        fn valid_publishes_round_trip(topic in "[0-9a-f]{64}", message in "[A-Za-z0-9+/=]{1,1024}", ttl in 10u64..=2_592_000, tag in any::<i64>()) {
            let text = json!({"id": "9", "jsonrpc": "2.0", "method": "irn_publish", "params": {"topic": topic, "message": message, "ttl": ttl, "tag": tag}}).to_string();
            prop_assert_eq!(parse(&text, &LIMITS), Ok(Frame::Request(json!("9"), Request::Publish(Publish { topic, message, ttl, tag }))));
        }
    }
}
