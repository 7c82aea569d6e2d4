-- Name notes: why an account name kept from before the name rules would
-- be refused today ('reserved', or 'look-alike of NAME'); '' for every
-- other name. NULL until the server has checked it at start
-- (Store.checkNames); new accounts get ''.

-- +goose Up
ALTER TABLE accounts ADD COLUMN name_note TEXT;

-- +goose Down
ALTER TABLE accounts DROP COLUMN name_note;
