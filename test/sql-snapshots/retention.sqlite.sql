-- setCompanyRetention: days
insert into "company_settings" ("company_id", "retention_days") values (?, ?) on conflict ("company_id") do update set "retention_days" = ?;

-- companyRetention
select "retention_days" from "company_settings" where "company_id" = ?;

-- companiesWithPeriod: no deployment default
select "company_id", "retention_days" from "company_settings" where "retention_days" > ? order by "company_id";

-- companiesWithPeriod: a deployment default
select "data_versions"."company_id" as "company_id", "company_settings"."retention_days" as "retention_days" from "data_versions" left join "company_settings" on "company_settings"."company_id" = "data_versions"."company_id" order by "data_versions"."company_id";

-- exclusively + unitOfWork.run + removeOldest
begin immediate;
delete from "events" where "company_id" = ? and "id" in (select "id" from "events" where "company_id" = ? and "created_at" < ? order by "created_at", "id" limit 1000) returning "feed_seq", "connection_key", "flow_key", "step_key", "version_key";
delete from "event_key_values" where "company_id" = ? and "field" = ? and "value" in (?) and not exists (select 1 as "one" from "events" where "events"."company_id" = ? and "events"."connection_key" = "event_key_values"."value");
delete from "event_key_values" where "company_id" = ? and "field" = ? and "value" in (?) and not exists (select 1 as "one" from "events" where "events"."company_id" = ? and "events"."flow_key" = "event_key_values"."value");
delete from "event_key_values" where "company_id" = ? and "field" = ? and "value" in (?) and not exists (select 1 as "one" from "events" where "events"."company_id" = ? and "events"."step_key" = "event_key_values"."value");
delete from "event_key_values" where "company_id" = ? and "field" = ? and "value" in (?) and not exists (select 1 as "one" from "events" where "events"."company_id" = ? and "events"."version_key" = "event_key_values"."value");
insert into "events_removed" ("company_id", "through_xid", "through_seq", "removed_at") values (?, ?, ?, ?) on conflict ("company_id") do update set "through_xid" = case when (excluded.through_xid > events_removed.through_xid or
    (excluded.through_xid = events_removed.through_xid and excluded.through_seq > events_removed.through_seq)) then excluded.through_xid else events_removed.through_xid end, "through_seq" = case when (excluded.through_xid > events_removed.through_xid or
    (excluded.through_xid = events_removed.through_xid and excluded.through_seq > events_removed.through_seq)) then excluded.through_seq else events_removed.through_seq end, "removed_at" = excluded.removed_at;
commit;

-- oldestKept
select min(oldest) as oldest from (
        select (select min(created_at) from events where events.company_id = data_versions.company_id) as oldest
        from data_versions) as companies;
