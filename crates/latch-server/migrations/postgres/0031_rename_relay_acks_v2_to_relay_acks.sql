ALTER TABLE relay_acks_v2 RENAME TO relay_acks;
