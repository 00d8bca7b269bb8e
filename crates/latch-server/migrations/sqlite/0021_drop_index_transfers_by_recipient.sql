DROP INDEX transfers_by_recipient;
