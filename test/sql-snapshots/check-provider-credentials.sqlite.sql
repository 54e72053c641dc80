-- put
insert into "check_provider_credentials" ("company_id", "provider", "encrypted_key", "key_last4", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?) on conflict ("company_id", "provider") do update set "encrypted_key" = ?, "key_last4" = ?, "updated_at" = ?;
select "encrypted_key", "key_last4", "created_at", "updated_at" from "check_provider_credentials" where "company_id" = ? and "provider" = ?;

-- find
select "encrypted_key", "key_last4", "created_at", "updated_at" from "check_provider_credentials" where "company_id" = ? and "provider" = ?;

-- remove
delete from "check_provider_credentials" where "company_id" = ? and "provider" = ?;
