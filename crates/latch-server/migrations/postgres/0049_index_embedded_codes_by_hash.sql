CREATE INDEX embedded_codes_by_hash ON embedded_codes (code_hash);
