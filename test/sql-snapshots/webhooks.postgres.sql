-- insert
begin;
select pg_advisory_xact_lock(hashtextextended($1, 0));
select count(*) as "count" from "webhooks" where "company_id" = $1;
insert into "webhooks" ("id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at", "company_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9);
delete from "webhook_subscriptions" where "company_id" = $1 and "webhook_id" = $2;
insert into "webhook_subscriptions" ("company_id", "event_type", "webhook_id") values ($1, $2, $3), ($4, $5, $6);
commit;

-- list
select "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at" from "webhooks" where "company_id" = $1 order by "id";

-- find
select "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at" from "webhooks" where "company_id" = $1 and "id" = $2;

-- update: events
begin;
update "webhooks" set "events" = $1, "updated_at" = $2 where "company_id" = $3 and "id" = $4 returning "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at";
delete from "webhook_subscriptions" where "company_id" = $1 and "webhook_id" = $2;
insert into "webhook_subscriptions" ("company_id", "event_type", "webhook_id") values ($1, $2, $3);
commit;

-- update: disabled
begin;
update "webhooks" set "updated_at" = $1, "enabled" = $2 where "company_id" = $3 and "id" = $4 returning "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at";
delete from "webhook_subscriptions" where "company_id" = $1 and "webhook_id" = $2;
commit;

-- rotate secret
update "webhooks" set "previous_secret" = "secret", "previous_secret_expires_at" = $1, "secret" = $2, "updated_at" = $3 where "company_id" = $4 and "id" = $5 returning "id", "url", "events", "description", "enabled", "secret", "created_at", "updated_at";

-- unitOfWork.run + subscribers
begin;
select distinct "webhook_id" from "webhook_subscriptions" where "company_id" = $1 and "event_type" in ($2, $3);
commit;

-- remove
begin;
delete from "webhook_subscriptions" where "company_id" = $1 and "webhook_id" = $2;
delete from "webhook_deliveries" where "company_id" = $1 and "webhook_id" = $2;
delete from "webhooks" where "company_id" = $1 and "id" = $2;
commit;
