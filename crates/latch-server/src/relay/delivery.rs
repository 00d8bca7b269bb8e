//! One connection's deliveries: which `irn_subscription` pushes wait for an
//! ack, and when to send them again. Pure (time is passed in) so its rules are
//! property-tested; the connection task drives it.
//!
//! Rules: a message (by its mailbox id) is in flight at most once per connection
//! (a publish racing a subscribe's mailbox read is pushed once); an ack
//! settles it; an unacknowledged push is due again `redeliver_after` after it
//! was last sent; unsubscribing drops a topic's pushes.

use std::collections::HashMap;
use std::sync::Arc;

/// A push waiting for its ack.
#[derive(Debug, Clone)]
struct InFlight<T> {
    topic: Arc<str>,
    message: i64,
    payload: T,
    sent_at: u64,
    attempts: u32,
}

/// Pushes of one connection awaiting acks; `T` is what is re-sent.
#[derive(Debug)]
pub struct Deliveries<T> {
    in_flight: HashMap<u64, InFlight<T>>,
    by_message: HashMap<i64, u64>,
    redeliver_after: u64,
}

impl<T: Clone> Deliveries<T> {
    /// Nothing in flight; unacknowledged pushes are due again after `redeliver_after` (ms).
    pub fn new(redeliver_after: u64) -> Self {
        Self {
            in_flight: HashMap::new(),
            by_message: HashMap::new(),
            redeliver_after,
        }
    }

    /// Records a push of `payload` (mailbox message `message` on `topic`) under
    /// request `id` at `now` (ms); `false` (and nothing recorded) when this
    /// message is already in flight.
    pub fn offer(&mut self, id: u64, topic: &Arc<str>, message: i64, payload: T, now: u64) -> bool {
        if self.by_message.contains_key(&message) || self.in_flight.contains_key(&id) {
            return false;
        }
        self.by_message.insert(message, id);
        self.in_flight.insert(
            id,
            InFlight {
                topic: topic.clone(),
                message,
                payload,
                sent_at: now,
                attempts: 1,
            },
        );
        true
    }

    /// Settles push `id`; the mailbox message it carried, unless unknown (or already settled).
    pub fn ack(&mut self, id: u64) -> Option<i64> {
        let entry = self.in_flight.remove(&id)?;
        self.by_message.remove(&entry.message);
        Some(entry.message)
    }

    /// Pushes due again at `now`, as (id, payload, attempts so far), marked as sent now.
    pub fn due(&mut self, now: u64) -> Vec<(u64, T, u32)> {
        let mut due: Vec<(u64, T, u32)> = Vec::new();
        for (id, entry) in &mut self.in_flight {
            if now.saturating_sub(entry.sent_at) >= self.redeliver_after {
                entry.sent_at = now;
                entry.attempts += 1;
                due.push((*id, entry.payload.clone(), entry.attempts));
            }
        }
        due.sort_by_key(|(id, ..)| *id);
        due
    }

    /// Forgets every push on `topic` (the client unsubscribed).
    pub fn drop_topic(&mut self, topic: &str) {
        let by_message = &mut self.by_message;
        self.in_flight.retain(|_, entry| {
            let keep = &*entry.topic != topic;
            if !keep {
                by_message.remove(&entry.message);
            }
            keep
        });
    }

    /// Whether this mailbox message is in flight.
    pub fn contains(&self, message: i64) -> bool {
        self.by_message.contains_key(&message)
    }

    /// How many pushes await an ack.
    pub fn len(&self) -> usize {
        self.in_flight.len()
    }

    /// Whether none does.
    pub fn is_empty(&self) -> bool {
        self.in_flight.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn offer_ack_redeliver() {
        let mut d = Deliveries::new(1000);
        let t: Arc<str> = "t".into();
        assert!(d.offer(1, &t, 11, "p1", 0));
        assert!(!d.offer(2, &t, 11, "p1", 10), "one message is in flight once");
        assert!(d.offer(3, &t, 12, "p2", 600));
        assert!(d.due(999).is_empty());
        assert_eq!(d.due(1000), vec![(1, "p1", 2)]);
        assert!(d.due(1500).is_empty(), "1 was re-sent at 1000, 3 is due at 1600");
        assert_eq!(d.due(2010), vec![(1, "p1", 3), (3, "p2", 2)]);
        assert_eq!(d.ack(1), Some(11));
        assert_eq!(d.ack(1), None, "an ack settles once");
        assert!(
            d.offer(4, &t, 11, "p1", 2020),
            "after its ack a message may be pushed again"
        );
        d.drop_topic("t");
        assert!(d.is_empty());
        assert!(d.due(u64::MAX).is_empty());
    }

    #[derive(Debug, Clone)]
    enum Op {
        Offer(u64, u8, u8),
        Ack(u64),
        Tick(u64),
        Drop(u8),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u64..20, 0u8..3, 0u8..5).prop_map(|(id, t, h)| Op::Offer(id, t, h)),
            (0u64..20).prop_map(Op::Ack),
            (0u64..3000).prop_map(Op::Tick),
            (0u8..3).prop_map(Op::Drop),
        ]
    }

    proptest! {
        /// Against a plain model: what is in flight is exactly what was offered
        /// and neither acked nor dropped; nothing is due before its time; every
        /// unacked push is due once its time has come.
        #[test]
        fn matches_the_model(ops in prop::collection::vec(op(), 0..200)) {
            let mut d: Deliveries<u64> = Deliveries::new(1000);
            // id -> (topic, message, last sent); a message belongs to one topic.
            let mut model: HashMap<u64, (String, i64, u64)> = HashMap::new();
            let mut now = 0u64;
            for op in ops {
                match op {
                    Op::Offer(id, t, h) => {
                        let (topic, message) = (format!("t{t}"), i64::from(t) * 10 + i64::from(h));
                        let fresh = !model.contains_key(&id) && !model.values().any(|(_, m, _)| *m == message);
                        prop_assert_eq!(d.offer(id, &Arc::from(topic.as_str()), message, id, now), fresh);
                        if fresh {
                            model.insert(id, (topic, message, now));
                        }
                    }
                    Op::Ack(id) => {
                        let expected = model.remove(&id).map(|(_, m, _)| m);
                        prop_assert_eq!(d.ack(id), expected);
                    }
                    Op::Tick(step) => {
                        now += step;
                        let mut expected: Vec<u64> = model
                            .iter()
                            .filter(|(_, (_, _, sent))| now - sent >= 1000)
                            .map(|(id, _)| *id)
                            .collect();
                        expected.sort_unstable();
                        let due: Vec<u64> = d.due(now).into_iter().map(|(id, payload, _)| {
                            assert_eq!(id, payload);
                            id
                        }).collect();
                        prop_assert_eq!(&due, &expected);
                        for id in due {
                            model.get_mut(&id).unwrap().2 = now;
                        }
                    }
                    Op::Drop(t) => {
                        let topic = format!("t{t}");
                        d.drop_topic(&topic);
                        model.retain(|_, (mt, _, _)| *mt != topic);
                    }
                }
                prop_assert_eq!(d.len(), model.len());
                for (_, message, _) in model.values() {
                    prop_assert!(d.contains(*message));
                }
            }
        }
    }
}
