-- insert
insert into "record_tokens" ("key", "record_id", "user_id", "created_at", "expires_at", "visible_fields", "status_editable", "label", "company_id", "revoked_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- find
select "key", "record_id", "user_id", "created_at", "expires_at", "revoked_at", "visible_fields", "status_editable", "label" from "record_tokens" where "company_id" = ? and "key" = ?;

-- listLive
select "key", "record_id", "user_id", "created_at", "expires_at", "revoked_at", "visible_fields", "status_editable", "label" from "record_tokens" where "company_id" = ? and "record_id" = ? and "revoked_at" is null and "expires_at" > ? order by "created_at", "key";

-- revoke
select "revoked_at" from "record_tokens" where "company_id" = ? and "record_id" = ? and "key" = ?;
update "record_tokens" set "revoked_at" = ? where "company_id" = ? and "key" = ? and "revoked_at" is null;

-- unitOfWork.run + revokeAllOfRecord
begin immediate;
update "record_tokens" set "revoked_at" = ? where "company_id" = ? and "record_id" = ? and "revoked_at" is null;
commit;
