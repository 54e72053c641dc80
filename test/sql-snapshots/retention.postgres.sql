-- setCompanyRetention: days
insert into "company_settings" ("company_id", "retention_days") values ($1, $2) on conflict ("company_id") do update set "retention_days" = $3;

-- companyRetention
select "retention_days" from "company_settings" where "company_id" = $1;

-- companiesWithPeriod: no deployment default
select "company_id", "retention_days" from "company_settings" where "retention_days" > $1 order by "company_id";

-- companiesWithPeriod: a deployment default
select "data_versions"."company_id" as "company_id", "company_settings"."retention_days" as "retention_days" from "data_versions" left join "company_settings" on "company_settings"."company_id" = "data_versions"."company_id" order by "data_versions"."company_id";

-- exclusively + unitOfWork.run + removeOldest
select pg_try_advisory_lock($1::int4, $2::int4) as locked;
begin;
select pg_advisory_xact_lock($1::int4, hashtext($2));
delete from "events" where "company_id" = $1 and ("created_at", "id") in (select "created_at", "id" from "events" where "company_id" = $2 and "created_at" < $3 order by "created_at", "id" limit $4) returning "id", "created_at", feed_xid::text as "xid", "feed_seq", "connection_key", "flow_key", "step_key", "version_key";
delete from event_ids using unnest($1::text[], $2::text[]) as gone(id, created_at)
    where event_ids.company_id = $3 and event_ids.id = gone.id collate "C" and event_ids.created_at = gone.created_at collate "C";
delete from "event_key_values" where "company_id" = $1 and "field" = $2 and "value" in ($3) and not exists (select 1 as "one" from "events" where "events"."company_id" = $4 and "events"."connection_key" = "event_key_values"."value");
delete from "event_key_values" where "company_id" = $1 and "field" = $2 and "value" in ($3) and not exists (select 1 as "one" from "events" where "events"."company_id" = $4 and "events"."flow_key" = "event_key_values"."value");
delete from "event_key_values" where "company_id" = $1 and "field" = $2 and "value" in ($3) and not exists (select 1 as "one" from "events" where "events"."company_id" = $4 and "events"."step_key" = "event_key_values"."value");
delete from "event_key_values" where "company_id" = $1 and "field" = $2 and "value" in ($3) and not exists (select 1 as "one" from "events" where "events"."company_id" = $4 and "events"."version_key" = "event_key_values"."value");
insert into "events_removed" ("company_id", "through_xid", "through_seq", "removed_at") values ($1, $2, $3, $4) on conflict ("company_id") do update set "through_xid" = case when (excluded.through_xid > events_removed.through_xid or
    (excluded.through_xid = events_removed.through_xid and excluded.through_seq > events_removed.through_seq)) then excluded.through_xid else events_removed.through_xid end, "through_seq" = case when (excluded.through_xid > events_removed.through_xid or
    (excluded.through_xid = events_removed.through_xid and excluded.through_seq > events_removed.through_seq)) then excluded.through_seq else events_removed.through_seq end, "removed_at" = excluded.removed_at;
commit;
select pg_advisory_unlock($1::int4, $2::int4);

-- oldestKept
select min(oldest) as oldest from (
        select (select min(created_at) from events where events.company_id = data_versions.company_id) as oldest
        from data_versions) as companies;
