INSERT INTO relay_acks_v2 (message_id, client_id)
SELECT m.id, a.client_id FROM relay_acks a JOIN relay_messages_v2 m ON m.topic = a.topic AND m.hash = a.hash;
