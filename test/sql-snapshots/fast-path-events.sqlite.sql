-- list: no filter
select coalesce((select version from data_versions where data_versions.company_id = ?), 0) as "body" union all select "page"."body" from (select "body" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?) as "page";

-- list: no filter, later pages (none left: the version, then the page again)
select "id", "created_at", "body", (select version from data_versions where data_versions.company_id = ?) as "wrs_data_version" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 3 offset ?;
select "version" from "data_versions" where "company_id" = ?;
select "id", "created_at", "body" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;
select "id", "created_at", "body", (select version from data_versions where data_versions.company_id = ?) as "wrs_data_version" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 3 offset ?;
select "version" from "data_versions" where "company_id" = ?;
select "id", "created_at", "body" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- list: exact, comparison and time filters, ordered by flow_session desc
select "id", "flow_session", "body", (select version from data_versions where data_versions.company_id = ?) as "wrs_data_version" from "events" where "events"."company_id" = ? and ("events"."type" = ? and "events"."flow_session" >= ? and "events"."created_at" < ?) order by "events"."flow_session" desc nulls last, "events"."id" desc limit 3 offset ?;
select "version" from "data_versions" where "company_id" = ?;
select "id", "flow_session", "body" from "events" where "events"."company_id" = ? and ("events"."type" = ? and "events"."flow_session" >= ? and "events"."created_at" < ?) order by "events"."flow_session" desc nulls last, "events"."id" desc limit 2 offset ?;

-- list: contains, some stored values match
with scanned as (select value from event_key_values where company_id = ? and field = ? order by value limit 257)
        select coalesce((select version from data_versions where company_id = ?), 0) as version, (select count(*) from scanned) as scanned, matched.value
        from (select 1) as one left join (select value from scanned where instr(value, ?) > 0) as matched on true;
select "id", "created_at", "body" from "events" where "events"."company_id" = ? and "events"."flow_key" in (?) order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- list: contains, no stored value matches
with scanned as (select value from event_key_values where company_id = ? and field = ? order by value limit 257)
        select coalesce((select version from data_versions where company_id = ?), 0) as version, (select count(*) from scanned) as scanned, matched.value
        from (select 1) as one left join (select value from scanned where instr(value, ?) > 0) as matched on true;

-- openFastListChunks: no filter, read in chunks
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = ? limit 2) as "bounded";
select "id", "created_at", "body" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- openFastListChunks: contains, ordered by flow_session desc, read in chunks
select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = ? and "event_key_values"."field" = ? and event_key_values.rowid in (select rowid from event_key_values_trigrams where event_key_values_trigrams match ?) and instr(event_key_values.value, ?) > 0 limit 501;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = ? and "events"."flow_key" in (?) limit 2) as "bounded";
select "id", "flow_session", "body" from "events" where "events"."company_id" = ? and "events"."flow_key" in (?) order by "events"."flow_session" desc nulls last, "events"."id" desc limit 2 offset ?;
