//! What the app asks of the wallet: propose a session, send requests and
//! pings, disconnect; and the pairings left pending.

use latch_core::validate::ExpirerTarget;

use super::wire::{opts, Publish};
use super::{ConnectParams, Connecting, Proposal, SignClient, Waiting, FIVE_MINUTES, REQUEST_EXPIRED, SEVEN_DAYS};
use crate::crypto::{self, KeyPair, SymKey};
use crate::json::{ToValue, Value};
use crate::task::{self, select, Either};
use crate::uri::PairingUri;
use crate::{json, Error, Result};

impl SignClient {
    /// Proposes a session over a new pairing. Pairings left over from earlier
    /// attempts that nobody answered are dropped first.
    pub async fn connect(&self, params: ConnectParams) -> Result<Connecting> {
        self.cleanup_pending_pairings().await;
        let sym_key = SymKey::random()?;
        let expiry = self.now_secs() + FIVE_MINUTES;
        let uri = PairingUri::new(sym_key.clone(), expiry);
        let key_pair = KeyPair::generate()?;
        let id = self.next_id()?;
        let mut proposal = json!({
            "requiredNamespaces": params.required_namespaces,
            "optionalNamespaces": params.optional_namespaces,
            "relays": [{ "protocol": "irn" }],
            "proposer": { "publicKey": key_pair.public_hex(), "metadata": self.inner.metadata },
            "expiryTimestamp": expiry,
            "pairingTopic": uri.topic,
            "id": id,
        });
        if let Value::Object(fields) = &mut proposal {
            params.session_properties.put(fields, "sessionProperties");
        }
        let (done, mut approval) = task::channel();
        {
            let mut state = self.inner.state.borrow_mut();
            state.keys.insert(uri.topic.clone(), sym_key);
            state.proposals.insert(
                id,
                Proposal {
                    pairing_topic: uri.topic.clone(),
                    key_pair,
                    params,
                    done,
                },
            );
            state.expirer.set(ExpirerTarget::Id(id), expiry * 1000);
        }
        self.inner.relay.subscribe(&uri.topic).await?;
        let payload = json!({ "id": id, "jsonrpc": "2.0", "method": "wc_sessionPropose", "params": proposal });
        self.publish(&uri.topic, &payload, opts::PROPOSE).await?;
        Ok(Connecting {
            uri,
            id,
            approval: Box::pin(async move { approval.recv().await.unwrap_or(Err(Error::Closed)) }),
        })
    }

    /// Unsubscribes and forgets pairings whose proposal is no longer awaited.
    async fn cleanup_pending_pairings(&self) {
        let stale: Vec<(u64, String)> = {
            let state = self.inner.state.borrow();
            state
                .proposals
                .iter()
                .filter(|(_, p)| p.done.is_closed())
                .map(|(id, p)| (*id, p.pairing_topic.clone()))
                .collect()
        };
        for (id, topic) in stale {
            self.forget_proposal(id);
            let _ = self.inner.relay.unsubscribe(&topic).await;
        }
    }

    /// Forgets every pairing whose proposal is not settled yet (their
    /// approvals fail with `session ended: pairing removed`) and stops
    /// listening to them: what the provider does before a new `connect()` and
    /// when a session ends, so no stale pairing outlives it.
    pub async fn remove_pending_pairings(&self) {
        let pending: Vec<u64> = self.inner.state.borrow().proposals.keys().copied().collect();
        for id in pending {
            let Some(proposal) = self.forget_proposal(id) else {
                continue;
            };
            self.inner.state.borrow_mut().settling.retain(|_, p| *p != id);
            let _ = proposal.done.send(Err(Error::SessionEnded("pairing removed".into())));
            let _ = self.inner.relay.unsubscribe(&proposal.pairing_topic).await;
        }
    }

    /// How many pairings await their proposal's answer.
    pub fn pending_pairings(&self) -> usize {
        self.inner.state.borrow().proposals.len()
    }

    /// Sends `method` with `params` to the wallet of session `topic` on `chain_id`
    /// and awaits its answer; the request expires after `expiry_secs`
    /// (300 s by default, at most 7 days), as the JS client's does.
    pub async fn request(
        &self,
        topic: &str,
        chain_id: &str,
        method: &str,
        params: Value,
        expiry_secs: Option<u64>,
    ) -> Result<Value> {
        let expiry = expiry_secs.unwrap_or(FIVE_MINUTES);
        if !(FIVE_MINUTES..=SEVEN_DAYS).contains(&expiry) {
            return Err(Error::NotAllowed(format!(
                "request() expiry: {expiry}. Expiry must be a number (in seconds) between {FIVE_MINUTES} and {SEVEN_DAYS}"
            )));
        }
        {
            let state = self.inner.state.borrow();
            let session = state
                .sessions
                .get(topic)
                .ok_or_else(|| Error::UnknownTopic(topic.into()))?;
            let namespace = chain_id.split(':').next().unwrap_or_default();
            let granted = session
                .namespaces
                .iter()
                .filter(|(key, _)| *key == namespace || *key == chain_id)
                .find(|(key, ns)| *key == chain_id || ns.has_chain(chain_id));
            let Some((_, granted)) = granted else {
                return Err(Error::NotAllowed(format!("request() chainId: {chain_id}")));
            };
            if !granted.methods.iter().any(|m| m == method) {
                return Err(Error::NotAllowed(format!("request() method: {method}")));
            }
        }
        let params = json!({
            "request": { "method": method, "params": params, "expiryTimestamp": self.now_secs() + expiry },
            "chainId": chain_id,
        });
        let Publish { ttl, tag } = opts::REQUEST;
        self.call(
            topic,
            "wc_sessionRequest",
            params,
            Publish {
                ttl: ttl.max(expiry),
                tag,
            },
            expiry * 1000,
            REQUEST_EXPIRED,
        )
        .await
    }

    /// Pings the wallet of session `topic` and awaits its answer.
    pub async fn ping(&self, topic: &str) -> Result<()> {
        if !self.inner.state.borrow().sessions.contains_key(topic) {
            return Err(Error::UnknownTopic(topic.into()));
        }
        self.call(
            topic,
            "wc_sessionPing",
            json!({}),
            opts::PING,
            FIVE_MINUTES * 1000,
            "Ping expired",
        )
        .await
        .map(drop)
    }

    /// Ends session `topic`: tells the wallet (`6000 User disconnected.`) and forgets it.
    pub async fn disconnect(&self, topic: &str) -> Result<()> {
        if !self.inner.state.borrow().sessions.contains_key(topic) {
            return Err(Error::UnknownTopic(topic.into()));
        }
        let id = self.next_id()?;
        let payload = json!({
            "id": id, "jsonrpc": "2.0", "method": "wc_sessionDelete",
            "params": { "code": 6000, "message": "User disconnected." },
        });
        self.publish(topic, &payload, opts::DELETE).await?;
        self.perform(self.delete_session(topic, "User disconnected.")).await
    }

    /// Sends a request on `topic` and awaits the peer's answer for `timeout_ms`.
    async fn call(
        &self,
        topic: &str,
        method: &str,
        params: Value,
        publish: Publish,
        timeout_ms: u64,
        expired: &str,
    ) -> Result<Value> {
        let id = self.next_id()?;
        let (done, mut answer) = task::channel();
        {
            let mut state = self.inner.state.borrow_mut();
            state.waiting.insert(
                id,
                Waiting {
                    topic: topic.to_owned(),
                    done,
                },
            );
            let at = self.inner.clock.now_ms() + timeout_ms;
            state.expirer.set(ExpirerTarget::Id(id), at);
        }
        let payload = json!({ "id": id, "jsonrpc": "2.0", "method": method, "params": params });
        if let Err(error) = self.publish(topic, &payload, publish).await {
            self.inner.state.borrow_mut().waiting.remove(&id);
            return Err(error);
        }
        let result = match select(answer.recv(), self.inner.clock.sleep(timeout_ms)).await {
            Either::Left(answer) => answer.unwrap_or(Err(Error::Timeout(expired.into()))),
            Either::Right(_) => Err(Error::Timeout(expired.into())),
        };
        let mut state = self.inner.state.borrow_mut();
        state.waiting.remove(&id);
        state.expirer.remove(&ExpirerTarget::Id(id));
        result
    }

    /// `payload` sealed with `topic`'s key, as the relay carries it.
    pub(super) fn seal(&self, topic: &str, payload: &Value) -> Result<String> {
        let state = self.inner.state.borrow();
        let key = state.keys.get(topic).ok_or_else(|| Error::UnknownTopic(topic.into()))?;
        crypto::encrypt(key, &payload.to_string(), None)
    }

    /// Seals `payload` with `topic`'s key and publishes it.
    async fn publish(&self, topic: &str, payload: &Value, Publish { ttl, tag }: Publish) -> Result<()> {
        let message = self.seal(topic, payload)?;
        self.inner.relay.publish(topic, &message, ttl, tag).await
    }
}
