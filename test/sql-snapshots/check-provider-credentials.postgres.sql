-- put
insert into "check_provider_credentials" ("company_id", "provider", "encrypted_key", "key_last4", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6) on conflict ("company_id", "provider") do update set "encrypted_key" = $7, "key_last4" = $8, "updated_at" = $9;
select "encrypted_key", "key_last4", "created_at", "updated_at" from "check_provider_credentials" where "company_id" = $1 and "provider" = $2;

-- find
select "encrypted_key", "key_last4", "created_at", "updated_at" from "check_provider_credentials" where "company_id" = $1 and "provider" = $2;

-- remove
delete from "check_provider_credentials" where "company_id" = $1 and "provider" = $2;
