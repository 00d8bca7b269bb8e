//! What the wallet sends: answers to our proposals and requests, the
//! settlement, events, updates, extensions, pings and deletions. Handlers
//! update the state at once and return [`Effects`]; one place awaits them.

use latch_core::validate::ExpirerTarget;

use super::wire::{opts, Publish};
use super::{Peer, Reason, Session, SessionNamespace, SignClient, SignEvent, Waiting, SEVEN_DAYS};
use crate::crypto::{self, topic_of, Envelope};
use crate::json::{FromValue, Value};
use crate::map::Map;
use crate::relay::RelayMessage;
use crate::task::Sender;
use crate::{json, Error, Result};

/// A sealed answer to publish.
pub(super) struct Reply {
    topic: String,
    /// The envelope, as the relay carries it.
    message: String,
    publish: Publish,
}

/// A proposal's approval to resolve with its settled session.
pub(super) struct Settled {
    done: Sender<Result<Session>>,
    session: Session,
}

/// What handling a message or an expiry leaves to do once the state is
/// updated, in this order (`SignClient::perform`). Handlers decide without
/// awaiting; one place awaits, so the engine compiles one state machine for
/// it rather than one per handler and answer.
#[derive(Default)]
pub(super) struct Effects {
    /// Write the state to storage.
    pub(super) persist: bool,
    /// Answer the peer.
    pub(super) reply: Option<Reply>,
    /// Stop listening to a topic.
    pub(super) unsubscribe: Option<String>,
    /// Start listening to a topic.
    pub(super) subscribe: Option<String>,
    /// Resolve a `connect()`'s approval.
    pub(super) settled: Option<Settled>,
    /// Tell the app.
    pub(super) event: Option<SignEvent>,
}

impl SignClient {
    /// An answer to the peer's request `id` on `topic`, sealed, for [`Effects::reply`].
    fn reply(&self, topic: &str, id: &Value, result: Result<Value, Reason>, publish: Publish) -> Result<Reply> {
        let payload = match result {
            Ok(result) => json!({ "id": id, "jsonrpc": "2.0", "result": result }),
            Err(error) => json!({ "id": id, "jsonrpc": "2.0", "error": error }),
        };
        Ok(Reply {
            topic: topic.to_owned(),
            message: self.seal(topic, &payload)?,
            publish,
        })
    }

    /// Handles one relay message: updates the state at once, then carries
    /// Handles one relay message: updates the state at once, then carries
    /// out what that left to do.
    pub(super) async fn on_message(&self, message: RelayMessage) -> Result<()> {
        let effects = self.take(message)?;
        self.perform(effects).await
    }

    /// Carries out `effects` in their order. A failed write is logged, not
    /// fatal: the wallet still gets its answer and the app its event (the
    /// session then lasts as long as the page).
    pub(super) async fn perform(&self, effects: Effects) -> Result<()> {
        if effects.persist {
            if let Err(error) = self.persist().await {
                tracing::warn!(%error, "sign: persisting failed");
            }
        }
        let mut result = Ok(());
        if let Some(Reply {
            topic,
            message,
            publish,
        }) = effects.reply
        {
            result = self
                .inner
                .relay
                .publish(&topic, &message, publish.ttl, publish.tag)
                .await;
        }
        if let Some(topic) = effects.unsubscribe {
            let _ = self.inner.relay.unsubscribe(&topic).await;
        }
        if let Some(topic) = effects.subscribe {
            result = result.and(self.inner.relay.subscribe(&topic).await.map(drop));
        }
        if let Some(Settled { done, session }) = effects.settled {
            let _ = done.send(Ok(session));
        }
        if let Some(event) = effects.event {
            self.emit(event);
        }
        result
    }

    /// Reads a relay message and applies it to the state; what needs IO comes back as [`Effects`].
    fn take(&self, message: RelayMessage) -> Result<Effects> {
        let Some(key) = self.inner.state.borrow().keys.get(&message.topic).cloned() else {
            return Ok(Effects::default());
        };
        let envelope = Envelope::decode(&message.message)?;
        if envelope.sender_public_key().is_some() {
            // Type 1 answers only sessionAuthenticate, which this client does not send.
            return Err(Error::InvalidEnvelope("type 1 envelope on a known topic"));
        }
        let payload = Value::parse(&envelope.open(&key)?).map_err(|e| Error::InvalidPayload(e.to_string()))?;
        let topic = message.topic;
        let id = payload.get("id").cloned().unwrap_or(Value::Null);
        if let Some(method) = payload.get("method").and_then(Value::as_str) {
            let params = payload.get("params").cloned().unwrap_or(Value::Null);
            return self.on_request(&topic, &id, method, params);
        }
        let Some(id) = id.as_u64() else {
            return Err(Error::InvalidPayload("response without a numeric id".into()));
        };
        let answer = match (payload.get("result"), payload.get("error")) {
            (Some(result), _) => Ok(result.clone()),
            (None, Some(error)) => Err(Reason::from_value(error)
                .map(|r| Error::Peer {
                    code: r.code,
                    message: r.message,
                })
                .unwrap_or_else(|e| Error::InvalidPayload(e.to_string()))),
            (None, None) => return Err(Error::InvalidPayload("neither request nor response".into())),
        };
        if self.inner.state.borrow().proposals.contains_key(&id) {
            return Ok(self.on_proposal_answer(id, answer));
        }
        let waiting = self.inner.state.borrow_mut().waiting.remove(&id);
        if let Some(waiting) = waiting {
            let _ = waiting.done.send(answer);
        }
        Ok(Effects::default())
    }

    /// The wallet's answer on the pairing topic: derive the session key and
    /// listen on the session topic for the settlement.
    fn on_proposal_answer(&self, id: u64, answer: Result<Value>) -> Effects {
        let peer = match answer {
            Ok(result) => result
                .get("responderPublicKey")
                .and_then(Value::as_str)
                .ok_or_else(|| Error::InvalidPayload("no responderPublicKey".into()))
                .and_then(|k| crypto::parse_hex32(k, "publicKey")),
            Err(error) => Err(error),
        };
        let derived = peer.and_then(|peer| {
            let state = self.inner.state.borrow();
            let proposal = state.proposals.get(&id).ok_or(Error::Closed)?;
            proposal.key_pair.derive_sym_key(&peer)
        });
        let key = match derived {
            Ok(key) => key,
            Err(error) => {
                let Some(proposal) = self.forget_proposal(id) else {
                    return Effects::default();
                };
                let _ = proposal.done.send(Err(error));
                return Effects {
                    unsubscribe: Some(proposal.pairing_topic),
                    ..Effects::default()
                };
            }
        };
        let session_topic = topic_of(&key);
        let mut state = self.inner.state.borrow_mut();
        state.keys.insert(session_topic.clone(), key);
        state.settling.insert(session_topic.clone(), id);
        Effects {
            subscribe: Some(session_topic),
            ..Effects::default()
        }
    }

    fn on_request(&self, topic: &str, id: &Value, method: &str, params: Value) -> Result<Effects> {
        let known = self.inner.state.borrow().sessions.contains_key(topic);
        // Most requests are answered `true` once applied, and end with an event.
        let mut event = None;
        let mut persist = false;
        let (answer, opts) = match method {
            "wc_sessionSettle" => return self.on_settle(topic, id, params),
            "wc_sessionEvent" if known => {
                // Heard at once: it changes nothing here to wait for.
                let event = &params["event"];
                self.emit(SignEvent::SessionEvent {
                    topic: topic.into(),
                    chain_id: params["chainId"].as_str().unwrap_or_default().into(),
                    name: event["name"].as_str().unwrap_or_default().into(),
                    data: event["data"].clone(),
                });
                (Ok(()), opts::EVENT_RES)
            }
            "wc_sessionUpdate" if known => match Map::<String, SessionNamespace>::from_value(&params["namespaces"]) {
                Ok(namespaces) => {
                    if let Some(session) = self.inner.state.borrow_mut().sessions.get_mut(topic) {
                        session.namespaces.clone_from(&namespaces);
                    }
                    persist = true;
                    event = Some(SignEvent::SessionUpdated {
                        topic: topic.into(),
                        namespaces,
                    });
                    (Ok(()), opts::UPDATE_RES)
                }
                Err(e) => (Err(invalid(&e.to_string())), opts::UPDATE_RES),
            },
            "wc_sessionExtend" if known => {
                // As the JS client: a week from now, whatever the wallet proposed.
                let expiry = self.now_secs() + SEVEN_DAYS;
                let mut state = self.inner.state.borrow_mut();
                if let Some(session) = state.sessions.get_mut(topic) {
                    session.expiry = expiry;
                }
                state.expirer.set(ExpirerTarget::Topic(topic.into()), expiry * 1000);
                persist = true;
                event = Some(SignEvent::SessionExtended {
                    topic: topic.into(),
                    expiry,
                });
                (Ok(()), opts::EXTEND_RES)
            }
            "wc_sessionPing" if known => {
                event = Some(SignEvent::SessionPing { topic: topic.into() });
                (Ok(()), opts::PING_RES)
            }
            "wc_sessionDelete" if known => {
                let reason = Reason::from_value(&params).unwrap_or(Reason {
                    code: 6000,
                    message: "User disconnected.".into(),
                });
                // Sealed before the session (and its key) is forgotten.
                let reply = self.reply(topic, id, Ok(json!(true)), opts::DELETE_RES)?;
                let mut effects = self.delete_session(topic, &reason.message);
                effects.reply = Some(reply);
                effects.event = Some(SignEvent::SessionDeleted {
                    topic: topic.into(),
                    reason,
                });
                return Ok(effects);
            }
            "wc_pairingPing" => (Ok(()), opts::PAIRING_PING_RES),
            "wc_pairingDelete" => {
                let reply = self.reply(topic, id, Ok(json!(true)), opts::PAIRING_DELETE_RES)?;
                self.inner.state.borrow_mut().keys.remove(topic);
                return Ok(Effects {
                    reply: Some(reply),
                    unsubscribe: Some(topic.into()),
                    ..Effects::default()
                });
            }
            _ if !known && method.starts_with("wc_session") => {
                let reason = Reason {
                    code: 7001,
                    message: format!("No matching key. session topic doesn't exist: {topic}"),
                };
                (Err(reason), opts::UNKNOWN)
            }
            _ => {
                let reason = Reason {
                    code: 10001,
                    message: format!("Unsupported wc_ method. {method}"),
                };
                (Err(reason), opts::UNKNOWN)
            }
        };
        Ok(Effects {
            persist,
            reply: Some(self.reply(topic, id, answer.map(|()| json!(true)), opts)?),
            event,
            ..Effects::default()
        })
    }

    /// `wc_sessionSettle` on a session topic derived from one of our proposals.
    fn on_settle(&self, topic: &str, id: &Value, params: Value) -> Result<Effects> {
        struct Settle {
            namespaces: Map<String, SessionNamespace>,
            controller: Peer,
            expiry: u64,
        }
        crate::read_fields!(Settle {
            namespaces: field("namespaces"),
            controller: field("controller"),
            expiry: field("expiry"),
        });
        let refuse = |why: &str| -> Result<Effects> {
            Ok(Effects {
                reply: Some(self.reply(topic, id, Err(invalid(why)), opts::SETTLE_RES)?),
                ..Effects::default()
            })
        };
        let Some(proposal_id) = self.inner.state.borrow_mut().settling.remove(topic) else {
            return refuse("no pending session for this topic");
        };
        let settle = match Settle::from_value(&params) {
            Ok(settle) => settle,
            Err(e) => return refuse(&e.to_string()),
        };
        let Some(proposal) = self.forget_proposal(proposal_id) else {
            return Ok(Effects::default());
        };
        let session = Session {
            topic: topic.into(),
            pairing_topic: proposal.pairing_topic.clone(),
            expiry: settle.expiry,
            namespaces: settle.namespaces,
            required_namespaces: proposal.params.required_namespaces,
            optional_namespaces: proposal.params.optional_namespaces,
            peer: settle.controller,
            self_public_key: proposal.key_pair.public_hex(),
        };
        {
            let mut state = self.inner.state.borrow_mut();
            state.sessions.insert(topic.into(), session.clone());
            state
                .expirer
                .set(ExpirerTarget::Topic(topic.into()), session.expiry * 1000);
        }
        Ok(Effects {
            persist: true,
            reply: Some(self.reply(topic, id, Ok(json!(true)), opts::SETTLE_RES)?),
            // The pairing did its job: stop listening to it.
            unsubscribe: Some(proposal.pairing_topic),
            settled: Some(Settled {
                done: proposal.done,
                session: session.clone(),
            }),
            event: Some(SignEvent::SessionConnected(session)),
            ..Effects::default()
        })
    }

    /// Forgets session `topic`: its key, expiry and waiting requests (which
    /// fail with `why`); writing the state down and unsubscribing are left to the caller.
    pub(super) fn delete_session(&self, topic: &str, why: &str) -> Effects {
        let waiting: Vec<Waiting> = {
            let mut state = self.inner.state.borrow_mut();
            state.sessions.remove(topic);
            state.keys.remove(topic);
            state.expirer.remove(&ExpirerTarget::Topic(topic.into()));
            let ids: Vec<u64> = state
                .waiting
                .iter()
                .filter(|(_, w)| w.topic == topic)
                .map(|(id, _)| *id)
                .collect();
            ids.iter().filter_map(|id| state.waiting.remove(id)).collect()
        };
        for waiting in waiting {
            let _ = waiting.done.send(Err(Error::SessionEnded(why.into())));
        }
        Effects {
            persist: true,
            unsubscribe: Some(topic.into()),
            ..Effects::default()
        }
    }
}

fn invalid(why: &str) -> Reason {
    Reason {
        code: 1001,
        message: format!("Missing or invalid. {why}"),
    }
}
