-- Every account's name skeleton (TR39 confusables, lower case), unique:
-- a name that looks like an existing account's is refused. Accounts
-- created before have none until the server fills it in at start
-- (Store.fillSkeletons); NULLs never clash.

-- +goose Up
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX accounts_name_skeleton ON accounts (name_skeleton);

-- +goose Down
DROP INDEX accounts_name_skeleton;
ALTER TABLE accounts DROP COLUMN name_skeleton;
