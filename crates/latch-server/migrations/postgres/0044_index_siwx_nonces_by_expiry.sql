-- Pruning (crate::siwx) finds expired rows by these.
CREATE INDEX siwx_nonces_by_expiry ON siwx_nonces (expires_at);
