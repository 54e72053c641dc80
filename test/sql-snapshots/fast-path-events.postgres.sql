-- list: no filter
select "id", "created_at", "body", (select version from data_versions where data_versions.company_id = $1) as "wrs_data_version" from "events" where "events"."company_id" = $2 order by "events"."created_at" asc, "events"."id" asc limit 2 offset $3;

-- list: no filter, later pages (none left: the version, then the page again)
select "id", "created_at", "body", (select version from data_versions where data_versions.company_id = $1) as "wrs_data_version" from "events" where "events"."company_id" = $2 order by "events"."created_at" asc, "events"."id" asc limit 3 offset $3;
select "version" from "data_versions" where "company_id" = $1;
select "id", "created_at", "body" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit 2 offset $2;
select "id", "created_at", "body", (select version from data_versions where data_versions.company_id = $1) as "wrs_data_version" from "events" where "events"."company_id" = $2 order by "events"."created_at" asc, "events"."id" asc limit 3 offset $3;
select "version" from "data_versions" where "company_id" = $1;
select "id", "created_at", "body" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit 2 offset $2;

-- list: exact, comparison and time filters, ordered by flow_session desc
select "id", "flow_session", "body", (select version from data_versions where data_versions.company_id = $1) as "wrs_data_version" from "events" where "events"."company_id" = $2 and ("events"."type" = $3 and "events"."flow_session" >= $4 and "events"."created_at" < $5) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $6 offset $7;
select "version" from "data_versions" where "company_id" = $1;
select "id", "flow_session", "body" from "events" where "events"."company_id" = $1 and ("events"."type" = $2 and "events"."flow_session" >= $3 and "events"."created_at" < $4) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $5 offset $6;

-- list: contains, some stored values match
with scanned as (select value from event_key_values where company_id = $1 and field = $2 order by value limit 257)
        select coalesce((select version from data_versions where company_id = $3), 0) as version, (select count(*) from scanned) as scanned, matched.value
        from (select 1) as one left join (select value from scanned where value like $4) as matched on true;
select "id", "created_at", "body" from "events" where "events"."company_id" = $1 and "events"."flow_key" in ($2) order by "events"."created_at" asc, "events"."id" asc limit $3 offset $4;

-- list: contains, no stored value matches
with scanned as (select value from event_key_values where company_id = $1 and field = $2 order by value limit 257)
        select coalesce((select version from data_versions where company_id = $3), 0) as version, (select count(*) from scanned) as scanned, matched.value
        from (select 1) as one left join (select value from scanned where value like $4) as matched on true;

-- openFastListChunks: no filter, read in chunks
begin isolation level repeatable read read only;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit $2) as "bounded";
copy (select "id", "created_at", "body" from "events" where "events"."company_id" = 'acme' order by "events"."created_at" asc, "events"."id" asc limit 2 offset 0) to stdout (format binary);
rollback;

-- openFastListChunks: contains, ordered by flow_session desc, read in chunks
begin isolation level repeatable read read only;
select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = $1 and "event_key_values"."field" = $2 and "event_key_values"."value" like $3 limit $4;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = $1 and "events"."flow_key" in ($2) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $3) as "bounded";
copy (select "id", "flow_session", "body" from "events" where "events"."company_id" = 'acme' and "events"."flow_key" in ('flow-a') order by "events"."flow_session" desc nulls last, "events"."id" desc limit 2 offset 0) to stdout (format binary);
rollback;
