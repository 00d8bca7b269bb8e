DROP TABLE relay_messages;
