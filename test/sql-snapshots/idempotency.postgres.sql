-- claim: new
insert into "idempotency_keys" ("company_id", "scope", "key", "claim_token", "request_hash", "response_status", "response_headers", "response_body", "expires_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict ("company_id", "scope", "key") do nothing;

-- claim: taken
insert into "idempotency_keys" ("company_id", "scope", "key", "claim_token", "request_hash", "response_status", "response_headers", "response_body", "expires_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict ("company_id", "scope", "key") do nothing;

-- find
select "request_hash", "response_status", "response_headers", "response_body", "expires_at" from "idempotency_keys" where "company_id" = $1 and "scope" = $2 and "key" = $3;

-- renew
update "idempotency_keys" set "expires_at" = $1 where "company_id" = $2 and "scope" = $3 and "key" = $4 and "claim_token" = $5 and "response_status" is null;

-- takeOver
update "idempotency_keys" set "claim_token" = $1, "request_hash" = $2, "response_status" = $3, "response_headers" = $4, "response_body" = $5, "expires_at" = $6 where "company_id" = $7 and "scope" = $8 and "key" = $9 and "expires_at" <= $10;

-- complete
update "idempotency_keys" set "request_hash" = $1, "response_status" = $2, "response_headers" = $3, "response_body" = $4, "expires_at" = $5 where "company_id" = $6 and "scope" = $7 and "key" = $8 and "claim_token" = $9;

-- release
delete from "idempotency_keys" where "company_id" = $1 and "scope" = $2 and "key" = $3 and "claim_token" = $4 and "response_status" is null;

-- deleteExpired
delete from "idempotency_keys" where "expires_at" <= $1;
