-- unitOfWork.run + write, then afterBulkWrite
begin;
select pg_advisory_xact_lock_shared($1::int4, hashtext($2));
create temporary table if not exists "events_staging" on commit delete rows as
      select 0 as ordinal, "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body" from events with no data;
copy events_staging (ordinal, company_id, id, connection_id, connection_key, created_at, excluded, flow_id, flow_key, flow_session, like_value, seconds_active, seconds_running, selected_decision, step_key, text, type, updated_at, user_id, version_id, version_key, version_object, body) from stdin;
insert into events ("company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", feed_seq)
    select "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", feed_seq from (
      select "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", nextval('events_feed_seq') as feed_seq from "events_staging" order by ordinal
    ) as numbered order by id
    on conflict (company_id, id) do update set "connection_id" = excluded."connection_id", "connection_key" = excluded."connection_key", "created_at" = excluded."created_at", "excluded" = excluded."excluded", "flow_id" = excluded."flow_id", "flow_key" = excluded."flow_key", "flow_session" = excluded."flow_session", "like_value" = excluded."like_value", "seconds_active" = excluded."seconds_active", "seconds_running" = excluded."seconds_running", "selected_decision" = excluded."selected_decision", "step_key" = excluded."step_key", "text" = excluded."text", "type" = excluded."type", "updated_at" = excluded."updated_at", "user_id" = excluded."user_id", "version_id" = excluded."version_id", "version_key" = excluded."version_key", "version_object" = excluded."version_object", "body" = excluded."body", feed_xid = pg_current_xact_id(), feed_seq = excluded.feed_seq;
insert into "event_key_values" ("company_id", "field", "value") values ($1, $2, $3), ($4, $5, $6), ($7, $8, $9), ($10, $11, $12) on conflict do nothing;
commit;

-- hasEvents
select "id" from "events" where "company_id" = $1 limit $2;

-- typeCounts
select "type", count(*) as "count" from "events" where "company_id" = $1 group by "type" order by "type";

-- list: no filter
select "id", "created_at", "body", (select version from data_versions where data_versions.company_id = $1) as "wrs_data_version" from "events" where "events"."company_id" = $2 order by "events"."created_at" asc, "events"."id" asc limit 2 offset $3;

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

-- unitOfWork.run + feedPositionBefore + write (a replacement)
begin;
select pg_current_xact_id()::text as xid;
select pg_advisory_xact_lock_shared($1::int4, hashtext($2));
create temporary table if not exists "events_staging" on commit delete rows as
      select 0 as ordinal, "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body" from events with no data;
copy events_staging (ordinal, company_id, id, connection_id, connection_key, created_at, excluded, flow_id, flow_key, flow_session, like_value, seconds_active, seconds_running, selected_decision, step_key, text, type, updated_at, user_id, version_id, version_key, version_object, body) from stdin;
insert into events ("company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", feed_seq)
    select "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", feed_seq from (
      select "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", nextval('events_feed_seq') as feed_seq from "events_staging" order by ordinal
    ) as numbered order by id
    on conflict (company_id, id) do update set "connection_id" = excluded."connection_id", "connection_key" = excluded."connection_key", "created_at" = excluded."created_at", "excluded" = excluded."excluded", "flow_id" = excluded."flow_id", "flow_key" = excluded."flow_key", "flow_session" = excluded."flow_session", "like_value" = excluded."like_value", "seconds_active" = excluded."seconds_active", "seconds_running" = excluded."seconds_running", "selected_decision" = excluded."selected_decision", "step_key" = excluded."step_key", "text" = excluded."text", "type" = excluded."type", "updated_at" = excluded."updated_at", "user_id" = excluded."user_id", "version_id" = excluded."version_id", "version_key" = excluded."version_key", "version_object" = excluded."version_object", "body" = excluded."body", feed_xid = pg_current_xact_id(), feed_seq = excluded.feed_seq;
insert into "event_key_values" ("company_id", "field", "value") values ($1, $2, $3), ($4, $5, $6), ($7, $8, $9), ($10, $11, $12) on conflict do nothing;
commit;

-- changes: all types
select pg_snapshot_xmin(pg_current_snapshot())::text as xmin;
select body, feed_xid::text as feed_xid, feed_seq from events
    where company_id = $1  and (feed_xid, feed_seq) > ($2::xid8, $3) and feed_xid < $4::xid8
    order by events.feed_xid, events.feed_seq limit $5;
select exists (select 1 from events
          where company_id = $1  and (feed_xid, feed_seq) > ($2::xid8, $3) and feed_xid >= $4::xid8) as held;

-- changes: one type
select pg_snapshot_xmin(pg_current_snapshot())::text as xmin;
select body, feed_xid::text as feed_xid, feed_seq from events
    where company_id = $1 and type = $2 and (feed_xid, feed_seq) > ($3::xid8, $4) and feed_xid < $5::xid8
    order by events.feed_xid, events.feed_seq limit $6;
select exists (select 1 from events
          where company_id = $1 and type = $2 and (feed_xid, feed_seq) > ($3::xid8, $4) and feed_xid >= $5::xid8) as held;

-- feedEnd
select pg_snapshot_xmin(pg_current_snapshot())::text as xmin;

-- legacyCursorLimit
select "legacy_cursor_xid", "legacy_cursor_seq" from "data_versions" where "company_id" = $1;

-- removedThrough
select "through_xid", "through_seq" from "events_removed" where "company_id" = $1;

-- openList: no filter, read in chunks
begin isolation level repeatable read read only;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit $2) as "bounded";
declare snapshot_rows no scroll cursor for select "id", "created_at", "body" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit 2 offset $2;
fetch 1 from snapshot_rows;
rollback;

-- openList: contains, ordered by flow_session desc, read in chunks
begin isolation level repeatable read read only;
select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = $1 and "event_key_values"."field" = $2 and "event_key_values"."value" like $3 limit $4;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = $1 and "events"."flow_key" in ($2) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $3) as "bounded";
declare snapshot_rows no scroll cursor for select "id", "flow_session", "body" from "events" where "events"."company_id" = $1 and "events"."flow_key" in ($2) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $3 offset $4;
fetch 1 from snapshot_rows;
rollback;

-- openChanges: one type, read in chunks
begin isolation level repeatable read read only;
select pg_snapshot_xmin(pg_current_snapshot())::text as xmin;
select count(*) as matching from (select 1 from events
    where company_id = $1 and type = $2 and (feed_xid, feed_seq) > ($3::xid8, $4) and feed_xid < $5::xid8
    order by events.feed_xid, events.feed_seq limit $6) as bounded;
declare snapshot_rows no scroll cursor for select body, feed_xid::text as feed_xid, feed_seq from events
    where company_id = $1 and type = $2 and (feed_xid, feed_seq) > ($3::xid8, $4) and feed_xid < $5::xid8
    order by events.feed_xid, events.feed_seq limit $6;
fetch 1 from snapshot_rows;
rollback;
