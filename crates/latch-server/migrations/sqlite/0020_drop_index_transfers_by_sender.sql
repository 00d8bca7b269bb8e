-- History pages read an address's newest transactions straight off these, in order, without
-- collecting and sorting all of them (the first indexes lacked tx_index and chain).
DROP INDEX transfers_by_sender;
