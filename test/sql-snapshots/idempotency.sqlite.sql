-- claim: new
insert into "idempotency_keys" ("company_id", "scope", "key", "claim_token", "request_hash", "response_status", "response_headers", "response_body", "expires_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "scope", "key") do nothing;

-- claim: taken
insert into "idempotency_keys" ("company_id", "scope", "key", "claim_token", "request_hash", "response_status", "response_headers", "response_body", "expires_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "scope", "key") do nothing;

-- find
select "request_hash", "response_status", "response_headers", "response_body", "expires_at" from "idempotency_keys" where "company_id" = ? and "scope" = ? and "key" = ?;

-- renew
update "idempotency_keys" set "expires_at" = ? where "company_id" = ? and "scope" = ? and "key" = ? and "claim_token" = ? and "response_status" is null;

-- takeOver
update "idempotency_keys" set "claim_token" = ?, "request_hash" = ?, "response_status" = ?, "response_headers" = ?, "response_body" = ?, "expires_at" = ? where "company_id" = ? and "scope" = ? and "key" = ? and "expires_at" <= ?;

-- complete
update "idempotency_keys" set "request_hash" = ?, "response_status" = ?, "response_headers" = ?, "response_body" = ?, "expires_at" = ? where "company_id" = ? and "scope" = ? and "key" = ? and "claim_token" = ?;

-- release
delete from "idempotency_keys" where "company_id" = ? and "scope" = ? and "key" = ? and "claim_token" = ? and "response_status" is null;

-- deleteExpired
delete from "idempotency_keys" where "expires_at" <= ?;
