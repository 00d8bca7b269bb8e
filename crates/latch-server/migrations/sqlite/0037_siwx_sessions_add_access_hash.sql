-- Sign-in sessions answer a short-lived access token and a rotating one-time refresh
-- token (crate::siwx); the long-lived session token only travels in the HTTP-only cookie.
-- Sessions made before have neither (empty, matching no token).
ALTER TABLE siwx_sessions ADD COLUMN access_hash TEXT NOT NULL DEFAULT '';
