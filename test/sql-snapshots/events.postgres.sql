-- unitOfWork.run + write, then afterBulkWrite
begin;
select pg_advisory_xact_lock_shared($1::int4, hashtext($2));
create temporary table if not exists "events_staging" on commit delete rows as
      select 0 as ordinal, "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", created_at as replaced_created_at from events with no data;
copy events_staging (ordinal, company_id, id, connection_id, connection_key, created_at, excluded, flow_id, flow_key, flow_session, like_value, seconds_active, seconds_running, selected_decision, step_key, text, type, updated_at, user_id, version_id, version_key, version_object, body) from stdin;
with claimed as (
      insert into event_ids (company_id, id, created_at)
      select company_id, id, created_at from "events_staging" order by id
      on conflict (company_id, id) do update set created_at = excluded.created_at, replaced_created_at = event_ids.created_at
      returning id, replaced_created_at)
    update "events_staging" as staged set replaced_created_at = claimed.replaced_created_at
    from claimed where staged.id = claimed.id and claimed.replaced_created_at is not null
    returning 1 as replaced;
insert into events ("company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", feed_seq)
    select "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", nextval('events_feed_seq') from "events_staging" order by ordinal;
insert into "event_key_values" ("company_id", "field", "value") values ($1, $2, $3), ($4, $5, $6), ($7, $8, $9), ($10, $11, $12) on conflict do nothing;
commit;

-- hasEvents
select "id" from "events" where "company_id" = $1 limit $2;

-- typeCounts
select "type", count(*) as "count" from "events" where "company_id" = $1 group by "type" order by "type";

-- list: no filter
select "events"."body" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit $2 offset $3;

-- list: exact, comparison and time filters, ordered by flow_session desc
select "events"."body" from "events" where "events"."company_id" = $1 and ("events"."type" = $2 and "events"."flow_session" >= $3 and "events"."created_at" < $4) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $5 offset $6;

-- list: contains, some stored values match
select "events"."body" from "events" where "events"."company_id" = $1 and "events"."flow_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = $2 and "event_key_values"."field" = $3 and "event_key_values"."value" like $4) order by "events"."created_at" asc, "events"."id" asc limit $5 offset $6;

-- list: contains, no stored value matches
select "events"."body" from "events" where "events"."company_id" = $1 and "events"."step_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = $2 and "event_key_values"."field" = $3 and "event_key_values"."value" like $4) order by "events"."created_at" asc, "events"."id" asc limit $5 offset $6;

-- unitOfWork.run + feedPositionBefore + write (a replacement)
begin;
select pg_current_xact_id()::text as xid;
select pg_advisory_xact_lock_shared($1::int4, hashtext($2));
create temporary table if not exists "events_staging" on commit delete rows as
      select 0 as ordinal, "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", created_at as replaced_created_at from events with no data;
copy events_staging (ordinal, company_id, id, connection_id, connection_key, created_at, excluded, flow_id, flow_key, flow_session, like_value, seconds_active, seconds_running, selected_decision, step_key, text, type, updated_at, user_id, version_id, version_key, version_object, body) from stdin;
with claimed as (
      insert into event_ids (company_id, id, created_at)
      select company_id, id, created_at from "events_staging" order by id
      on conflict (company_id, id) do update set created_at = excluded.created_at, replaced_created_at = event_ids.created_at
      returning id, replaced_created_at)
    update "events_staging" as staged set replaced_created_at = claimed.replaced_created_at
    from claimed where staged.id = claimed.id and claimed.replaced_created_at is not null
    returning 1 as replaced;
delete from events using "events_staging" as staged
      where staged.replaced_created_at is not null and events.company_id = staged.company_id
        and events.created_at = staged.replaced_created_at and events.id = staged.id;
insert into events ("company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", feed_seq)
    select "company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", nextval('events_feed_seq') from "events_staging" order by ordinal;
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
declare snapshot_rows no scroll cursor for select "events"."body" from "events" where "events"."company_id" = $1 order by "events"."created_at" asc, "events"."id" asc limit $2 offset $3;
fetch 1 from snapshot_rows;
rollback;

-- openList: contains, ordered by flow_session desc, read in chunks
begin isolation level repeatable read read only;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = $1 and "events"."flow_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = $2 and "event_key_values"."field" = $3 and "event_key_values"."value" like $4) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $5) as "bounded";
declare snapshot_rows no scroll cursor for select "events"."body" from "events" where "events"."company_id" = $1 and "events"."flow_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = $2 and "event_key_values"."field" = $3 and "event_key_values"."value" like $4) order by "events"."flow_session" desc nulls last, "events"."id" desc limit $5 offset $6;
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
