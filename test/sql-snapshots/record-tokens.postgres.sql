-- insert
insert into "record_tokens" ("key", "record_id", "user_id", "created_at", "expires_at", "visible_fields", "status_editable", "label", "company_id", "revoked_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- find
select "key", "record_id", "user_id", "created_at", "expires_at", "revoked_at", "visible_fields", "status_editable", "label" from "record_tokens" where "company_id" = $1 and "key" = $2;

-- listLive
select "key", "record_id", "user_id", "created_at", "expires_at", "revoked_at", "visible_fields", "status_editable", "label" from "record_tokens" where "company_id" = $1 and "record_id" = $2 and "revoked_at" is null and "expires_at" > $3 order by "created_at", "key";

-- revoke
select "revoked_at" from "record_tokens" where "company_id" = $1 and "record_id" = $2 and "key" = $3;
update "record_tokens" set "revoked_at" = $1 where "company_id" = $2 and "key" = $3 and "revoked_at" is null;

-- unitOfWork.run + revokeAllOfRecord
begin;
update "record_tokens" set "revoked_at" = $1 where "company_id" = $2 and "record_id" = $3 and "revoked_at" is null;
commit;
