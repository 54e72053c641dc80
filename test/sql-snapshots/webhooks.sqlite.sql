-- insert
begin immediate;
select count(*) as "count" from "webhooks" where "company_id" = ?;
insert into "webhooks" ("id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at", "company_id") values (?, ?, ?, ?, ?, ?, ?, ?, ?);
delete from "webhook_subscriptions" where "company_id" = ? and "webhook_id" = ?;
insert into "webhook_subscriptions" ("company_id", "event_type", "webhook_id") values (?, ?, ?), (?, ?, ?);
commit;

-- list
select "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at" from "webhooks" where "company_id" = ? order by "id";

-- find
select "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at" from "webhooks" where "company_id" = ? and "id" = ?;

-- update: events
begin immediate;
update "webhooks" set "events" = ?, "updated_at" = ? where "company_id" = ? and "id" = ? returning "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at";
delete from "webhook_subscriptions" where "company_id" = ? and "webhook_id" = ?;
insert into "webhook_subscriptions" ("company_id", "event_type", "webhook_id") values (?, ?, ?);
commit;

-- update: disabled
begin immediate;
update "webhooks" set "updated_at" = ?, "enabled" = ? where "company_id" = ? and "id" = ? returning "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at";
delete from "webhook_subscriptions" where "company_id" = ? and "webhook_id" = ?;
commit;

-- rotate secret
update "webhooks" set "previous_secret" = "secret", "previous_secret_expires_at" = ?, "secret" = ?, "updated_at" = ? where "company_id" = ? and "id" = ? returning "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at";

-- unitOfWork.run + subscribers
begin immediate;
select distinct "webhook_id" from "webhook_subscriptions" where "company_id" = ? and "event_type" in (?, ?);
commit;

-- remove
begin immediate;
delete from "webhook_subscriptions" where "company_id" = ? and "webhook_id" = ?;
delete from "webhook_deliveries" where "company_id" = ? and "webhook_id" = ?;
delete from "webhooks" where "company_id" = ? and "id" = ?;
commit;
