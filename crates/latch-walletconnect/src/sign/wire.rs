//! What the Sign protocol carries: the records both sides read and write
//! (metadata, namespaces, sessions, reasons), what the app sees of them
//! (events, options, a pending connection), and each message's ttl and tag.

use std::future::Future;
use std::pin::Pin;

use crate::json::Value;
use crate::map::Map;
use crate::relay::RelayOptions;
use crate::uri::PairingUri;
use crate::Result;

/// The dapp as wallets show it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Metadata {
    /// Name.
    pub name: String,
    /// One line.
    pub description: String,
    /// Its origin.
    pub url: String,
    /// Icon URLs.
    pub icons: Vec<String>,
}

/// A CAIP-25 namespace asked for in a proposal.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProposalNamespace {
    /// CAIP-2 chains (absent when the key itself is a chain, `eip155:1`).
    pub chains: Option<Vec<String>>,
    /// JSON-RPC methods.
    pub methods: Vec<String>,
    /// Events.
    pub events: Vec<String>,
}

/// A CAIP-25 namespace the wallet granted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SessionNamespace {
    /// CAIP-10 accounts.
    pub accounts: Vec<String>,
    /// CAIP-2 chains, when the wallet lists them.
    pub chains: Option<Vec<String>>,
    /// Methods.
    pub methods: Vec<String>,
    /// Events.
    pub events: Vec<String>,
}

impl SessionNamespace {
    /// Whether `chain` is granted: listed in `chains` or in an account.
    pub fn has_chain(&self, chain: &str) -> bool {
        self.chains.iter().flatten().any(|c| c == chain)
            || self
                .accounts
                .iter()
                .any(|a| a.rsplit_once(':').is_some_and(|(c, _)| c == chain))
    }
}

/// What [`SignClient::connect`] proposes (read from JS in camelCase).
#[derive(Debug, Clone, Default)]
pub struct ConnectParams {
    /// Namespaces the wallet must grant.
    pub required_namespaces: Map<String, ProposalNamespace>,
    /// Namespaces the wallet may grant.
    pub optional_namespaces: Map<String, ProposalNamespace>,
    /// Free-form `sessionProperties`.
    pub session_properties: Option<Map<String, String>>,
}

/// The other side of a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Peer {
    /// Its X25519 public key (hex).
    pub public_key: String,
    /// How it presents itself.
    pub metadata: Metadata,
}

/// A settled session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    /// The session topic.
    pub topic: String,
    /// The pairing it was proposed over.
    pub pairing_topic: String,
    /// Unix seconds.
    pub expiry: u64,
    /// What the wallet granted.
    pub namespaces: Map<String, SessionNamespace>,
    /// What was asked for.
    pub required_namespaces: Map<String, ProposalNamespace>,
    /// What was offered.
    pub optional_namespaces: Map<String, ProposalNamespace>,
    /// The wallet (the controller).
    pub peer: Peer,
    /// The dapp's own public key for this session.
    pub self_public_key: String,
}

/// A JSON-RPC error as the protocol sends it (`{code, message}`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    /// Code (`6000` user disconnected, `5000` user rejected, …).
    pub code: i64,
    /// Message.
    pub message: String,
}

// Read and written by hand (crate::json): derived serde code was a large part of the browser module.
crate::json_record!(Metadata {
    name: field("name"),
    description: field("description"),
    url: field("url"),
    icons: or_default("icons"),
});

crate::json_record!(ProposalNamespace {
    chains: optional("chains"),
    methods: field("methods"),
    events: field("events"),
});

crate::json_record!(SessionNamespace {
    accounts: field("accounts"),
    chains: optional("chains"),
    methods: field("methods"),
    events: field("events"),
});

crate::read_fields!(ConnectParams {
    required_namespaces: or_default("requiredNamespaces"),
    optional_namespaces: or_default("optionalNamespaces"),
    session_properties: optional("sessionProperties"),
});

crate::json_record!(Peer {
    public_key: field("publicKey"),
    metadata: field("metadata"),
});

crate::json_record!(Session {
    topic: field("topic"),
    pairing_topic: field("pairingTopic"),
    expiry: field("expiry"),
    namespaces: field("namespaces"),
    required_namespaces: field("requiredNamespaces"),
    optional_namespaces: field("optionalNamespaces"),
    peer: field("peer"),
    self_public_key: field("selfPublicKey"),
});

crate::json_record!(Reason {
    code: field("code"),
    message: field("message"),
});

/// What happened, as the app sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum SignEvent {
    /// A proposal was approved and settled.
    SessionConnected(Session),
    /// `wc_sessionEvent` (`accountsChanged`, `chainChanged`, …).
    SessionEvent {
        /// Session topic.
        topic: String,
        /// CAIP-2 chain.
        chain_id: String,
        /// Event name.
        name: String,
        /// Event data.
        data: Value,
    },
    /// The wallet changed the granted namespaces.
    SessionUpdated {
        /// Session topic.
        topic: String,
        /// The new namespaces.
        namespaces: Map<String, SessionNamespace>,
    },
    /// The wallet extended the session.
    SessionExtended {
        /// Session topic.
        topic: String,
        /// New expiry, unix seconds.
        expiry: u64,
    },
    /// The wallet pinged.
    SessionPing {
        /// Session topic.
        topic: String,
    },
    /// The wallet ended the session.
    SessionDeleted {
        /// Session topic.
        topic: String,
        /// Why, as the wallet said.
        reason: Reason,
    },
    /// A session reached its expiry.
    SessionExpired {
        /// Session topic.
        topic: String,
    },
    /// A proposal nobody approved in time.
    ProposalExpired {
        /// The proposal id.
        id: u64,
    },
}

/// Construction options.
#[derive(Debug, Clone)]
pub struct SignOptions {
    /// The relay.
    pub relay: RelayOptions,
    /// The dapp's metadata.
    pub metadata: Metadata,
}

/// An outstanding [`SignClient::connect`]: show `uri`, await `approval`.
pub struct Connecting {
    /// The pairing URI for the QR code or deep link.
    pub uri: PairingUri,
    /// The proposal id.
    pub id: u64,
    /// Resolves with the session once the wallet settles it.
    pub approval: Pin<Box<dyn Future<Output = Result<Session>>>>,
}

impl std::fmt::Debug for Connecting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connecting")
            .field("uri", &self.uri)
            .field("id", &self.id)
            .finish()
    }
}

/// How the relay keeps a message: how long, and the tag that says what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Publish {
    /// Seconds.
    pub(super) ttl: u64,
    pub(super) tag: u32,
}

/// The [`Publish`] of each message the dapp sends, from the protocol's table.
pub(super) mod opts {
    use super::super::{FIVE_MINUTES, ONE_DAY};
    use super::Publish;

    const fn publish(ttl: u64, tag: u32) -> Publish {
        Publish { ttl, tag }
    }

    pub(in crate::sign) const PROPOSE: Publish = publish(FIVE_MINUTES, 1100);
    pub(in crate::sign) const SETTLE_RES: Publish = publish(FIVE_MINUTES, 1103);
    pub(in crate::sign) const UPDATE_RES: Publish = publish(ONE_DAY, 1105);
    pub(in crate::sign) const EXTEND_RES: Publish = publish(ONE_DAY, 1107);
    pub(in crate::sign) const REQUEST: Publish = publish(FIVE_MINUTES, 1108);
    pub(in crate::sign) const EVENT_RES: Publish = publish(FIVE_MINUTES, 1111);
    pub(in crate::sign) const DELETE: Publish = publish(ONE_DAY, 1112);
    pub(in crate::sign) const DELETE_RES: Publish = publish(ONE_DAY, 1113);
    pub(in crate::sign) const PING: Publish = publish(ONE_DAY, 1114);
    pub(in crate::sign) const PING_RES: Publish = publish(ONE_DAY, 1115);
    pub(in crate::sign) const PAIRING_DELETE_RES: Publish = publish(ONE_DAY, 1001);
    pub(in crate::sign) const PAIRING_PING_RES: Publish = publish(30, 1003);
    pub(in crate::sign) const UNKNOWN: Publish = publish(ONE_DAY, 0);
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::json::{FromValue, ToValue};

    fn strings() -> impl Strategy<Value = Vec<String>> {
        prop::collection::vec("[a-z0-9:_]{0,10}", 0..3)
    }

    fn session() -> impl Strategy<Value = Session> {
        fn proposals() -> impl Strategy<Value = Map<String, ProposalNamespace>> {
            let proposal = (prop::option::of(strings()), strings(), strings()).prop_map(|(chains, methods, events)| {
                ProposalNamespace {
                    chains,
                    methods,
                    events,
                }
            });
            prop::collection::vec(("[a-z0-9:]{1,8}", proposal), 0..3)
                .prop_map(|entries| entries.into_iter().collect::<Map<_, _>>())
        }
        let granted = (strings(), prop::option::of(strings()), strings(), strings()).prop_map(
            |(accounts, chains, methods, events)| SessionNamespace {
                accounts,
                chains,
                methods,
                events,
            },
        );
        let metadata =
            ("\\PC{0,12}", "\\PC{0,12}", "[a-z:/.]{0,12}", strings()).prop_map(|(name, description, url, icons)| {
                Metadata {
                    name,
                    description,
                    url,
                    icons,
                }
            });
        (
            (
                "[0-9a-f]{64}",
                "[0-9a-f]{64}",
                any::<u64>(),
                "[0-9a-f]{64}",
                "[0-9a-f]{64}",
            ),
            prop::collection::vec(("[a-z0-9:]{1,8}", granted), 0..3),
            proposals(),
            proposals(),
            metadata,
        )
            .prop_map(
                |(
                    (topic, pairing_topic, expiry, public_key, self_public_key),
                    granted,
                    required,
                    optional,
                    metadata,
                )| {
                    Session {
                        topic,
                        pairing_topic,
                        expiry,
                        namespaces: granted.into_iter().collect(),
                        required_namespaces: required,
                        optional_namespaces: optional,
                        peer: Peer { public_key, metadata },
                        self_public_key,
                    }
                },
            )
    }

    proptest! {
        /// A session read by hand is the one written (storage and the JS façade both go this way).
        #[test]
        fn sessions_read_back_as_written(session in session()) {
            let written = session.to_value();
            prop_assert_eq!(Session::from_value(&written), Ok(session.clone()));
            prop_assert_eq!(crate::from_json::<Session>(&written.to_string()).unwrap(), session);
        }

        /// Any JSON is read or refused with a reason, never a panic; what reads writes back the same.
        #[test]
        fn any_json_is_read_or_refused(value in any_json()) {
            match Session::from_value(&value) {
                Ok(session) => prop_assert_eq!(Session::from_value(&session.to_value()), Ok(session)),
                Err(reason) => prop_assert!(!reason.is_empty()),
            }
            if let Err(reason) = ConnectParams::from_value(&value) {
                prop_assert!(!reason.is_empty());
            }
            if let Err(reason) = crate::relay::RelayMessage::from_value(&value) {
                prop_assert!(!reason.is_empty());
            }
        }
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "[a-zA-Z]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec(
                    (
                        prop::sample::select(vec![
                            "topic",
                            "expiry",
                            "peer",
                            "namespaces",
                            "message",
                            "requiredNamespaces"
                        ]),
                        inner
                    ),
                    0..4
                )
                .prop_map(|fields| Value::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
            ]
        })
    }

    #[test]
    fn connect_params_read_the_js_shape() {
        let params: ConnectParams = crate::from_json(
            r#"{"requiredNamespaces":{"eip155":{"chains":["eip155:1"],"methods":["personal_sign"],"events":[]}},
                "sessionProperties":{"k":"v"}}"#,
        )
        .unwrap();
        assert_eq!(
            params.required_namespaces["eip155"].chains.as_deref(),
            Some(&["eip155:1".to_owned()][..])
        );
        assert!(params.optional_namespaces.is_empty());
        assert_eq!(params.session_properties.unwrap()["k"], "v");
        // Everything is optional: `{}` proposes nothing in particular.
        let empty: ConnectParams = crate::from_json("{}").unwrap();
        assert!(empty.required_namespaces.is_empty());
        // A namespace without methods is a shape error, not a panic.
        assert_eq!(
            crate::from_json::<ConnectParams>(r#"{"requiredNamespaces":{"eip155":{}}}"#).unwrap_err(),
            "requiredNamespaces: eip155: missing field `methods`"
        );
    }
}
