ALTER TABLE relay_messages_v2 RENAME TO relay_messages;
