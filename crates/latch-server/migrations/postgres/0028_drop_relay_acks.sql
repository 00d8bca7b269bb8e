DROP TABLE relay_acks;
