//! The expirer: when each session, proposal and request runs out, and what
//! happens then (a session is deleted, a proposal's or request's caller
//! gets a timeout).

use latch_core::validate::ExpirerTarget;

use super::inbound::Effects;
use super::{Session, SignClient, SignEvent, PROPOSAL_EXPIRED, REQUEST_EXPIRED};
use crate::map::Map;
use crate::Error;

/// The expirer's tick: the heartbeat (behaviour 7.4, 5 s), the pulse the official client's
/// expirer checks on too; every expiry here is minutes or days long.
const EXPIRER_TICK_MS: u64 = latch_core::constants::CONSTANTS.timings.heartbeat_ms;

/// Expiries in unix ms, keyed by target as the JS client writes them
/// (`topic:…` / `id:…`, [`ExpirerTarget`]'s text), so stored ones read alike.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Expirer {
    at_ms: Map<String, u64>,
}

impl Expirer {
    /// What storage held, keeping only the expiries of `sessions`: proposals
    /// and requests died with the page.
    pub(super) fn restore(stored: Map<String, u64>, sessions: &Map<String, Session>) -> Self {
        let at_ms = stored
            .into_iter()
            .filter(|(target, _)| match target.parse() {
                Ok(ExpirerTarget::Topic(topic)) => sessions.contains_key(&topic),
                _ => false,
            })
            .collect();
        Expirer { at_ms }
    }

    /// `target` runs out at `at_ms`.
    pub(super) fn set(&mut self, target: ExpirerTarget, at_ms: u64) {
        self.at_ms.insert(target.to_string(), at_ms);
    }

    pub(super) fn remove(&mut self, target: &ExpirerTarget) {
        self.at_ms.remove(&target.to_string());
    }

    /// The keys of every target due at `now_ms`.
    fn due(&self, now_ms: u64) -> Vec<String> {
        self.at_ms
            .iter()
            .filter(|(_, at)| **at <= now_ms)
            .map(|(target, _)| target.clone())
            .collect()
    }

    /// The session expiries, which outlive a reload, as stored.
    pub(super) fn sessions(&self) -> Map<String, u64> {
        self.at_ms
            .iter()
            .filter(|(t, _)| t.starts_with("topic:"))
            .map(|(t, at)| (t.clone(), *at))
            .collect()
    }
}

impl SignClient {
    /// Expires what is due every tick, until [`SignClient::close`].
    pub(super) async fn run_expirer(&self) {
        loop {
            self.inner.clock.sleep(EXPIRER_TICK_MS).await;
            if self.inner.state.borrow().closed {
                return;
            }
            self.expire().await;
        }
    }

    /// Handles everything whose time has come.
    async fn expire(&self) {
        let now = self.inner.clock.now_ms();
        let due = self.inner.state.borrow().expirer.due(now);
        for target in due {
            if let Err(error) = self.perform(self.expire_one(&target)).await {
                tracing::warn!(%error, "sign: expiring {target} failed");
            }
        }
    }

    /// Applies one due expiry: a session's (`topic:…`), a proposal's or a request's (`id:…`).
    fn expire_one(&self, target: &str) -> Effects {
        self.inner.state.borrow_mut().expirer.at_ms.remove(target);
        match target.parse::<ExpirerTarget>() {
            Ok(ExpirerTarget::Topic(topic)) => {
                if !self.inner.state.borrow().sessions.contains_key(&topic) {
                    return Effects::default();
                }
                let mut effects = self.delete_session(&topic, "Session expired");
                effects.event = Some(SignEvent::SessionExpired { topic });
                effects
            }
            Ok(ExpirerTarget::Id(id)) => {
                if let Some(proposal) = self.forget_proposal(id) {
                    let _ = proposal.done.send(Err(Error::Timeout(PROPOSAL_EXPIRED.into())));
                    return Effects {
                        unsubscribe: Some(proposal.pairing_topic),
                        event: Some(SignEvent::ProposalExpired { id }),
                        ..Effects::default()
                    };
                }
                if let Some(waiting) = self.inner.state.borrow_mut().waiting.remove(&id) {
                    let _ = waiting.done.send(Err(Error::Timeout(REQUEST_EXPIRED.into())));
                }
                Effects::default()
            }
            Err(error) => {
                tracing::warn!(%error, "sign: bad expirer target");
                Effects::default()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Metadata, Peer};
    use super::*;

    #[test]
    fn only_live_session_expiries_are_restored_and_stored() {
        let stored = Map::from([
            ("topic:live".to_owned(), 5_000),
            ("topic:gone".to_owned(), 6_000),
            ("id:7".to_owned(), 7_000),
            ("nonsense".to_owned(), 8_000),
        ]);
        let live = Session {
            topic: "live".into(),
            pairing_topic: String::new(),
            expiry: 5,
            namespaces: Map::new(),
            required_namespaces: Map::new(),
            optional_namespaces: Map::new(),
            peer: Peer {
                public_key: String::new(),
                metadata: Metadata::default(),
            },
            self_public_key: String::new(),
        };
        let sessions = Map::from([("live".to_owned(), live)]);
        let restored = Expirer::restore(stored, &sessions);
        assert_eq!(restored.due(u64::MAX), vec!["topic:live".to_owned()]);

        let mut expirer = Expirer::default();
        expirer.set(ExpirerTarget::Topic("live".into()), 5_000);
        expirer.set(ExpirerTarget::Id(7), 7_000);
        assert_eq!(expirer.sessions(), Map::from([("topic:live".to_owned(), 5_000)]));
        assert_eq!(expirer.due(6_999), vec!["topic:live".to_owned()]);
        assert_eq!(expirer.due(7_000), vec!["id:7".to_owned(), "topic:live".to_owned()]);
        expirer.remove(&ExpirerTarget::Topic("live".into()));
        assert_eq!(expirer.due(u64::MAX), vec!["id:7".to_owned()]);
    }
}
