-- unitOfWork.run + write, then afterBulkWrite
begin immediate;
select max(
    coalesce((select max(feed_seq) from events where company_id = ?), 0),
    coalesce((select through_seq from events_removed where company_id = ?), 0)) as last;
insert into "events" ("company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", "feed_seq") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "id") do update set "connection_id" = "excluded"."connection_id", "connection_key" = "excluded"."connection_key", "created_at" = "excluded"."created_at", "excluded" = "excluded"."excluded", "flow_id" = "excluded"."flow_id", "flow_key" = "excluded"."flow_key", "flow_session" = "excluded"."flow_session", "like_value" = "excluded"."like_value", "seconds_active" = "excluded"."seconds_active", "seconds_running" = "excluded"."seconds_running", "selected_decision" = "excluded"."selected_decision", "step_key" = "excluded"."step_key", "text" = "excluded"."text", "type" = "excluded"."type", "updated_at" = "excluded"."updated_at", "user_id" = "excluded"."user_id", "version_id" = "excluded"."version_id", "version_key" = "excluded"."version_key", "version_object" = "excluded"."version_object", "body" = "excluded"."body", "feed_seq" = "excluded"."feed_seq";
insert into "event_key_values" ("company_id", "field", "value") values (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?) on conflict do nothing;
commit;
pragma optimize = 0x10012;

-- hasEvents
select "id" from "events" where "company_id" = ? limit 1;

-- typeCounts
select "type", count(*) as "count" from "events" where "company_id" = ? group by "type" order by "type";

-- list: no filter
select "events"."body" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- list: exact, comparison and time filters, ordered by flow_session desc
select "events"."body" from "events" where "events"."company_id" = ? and ("events"."type" = ? and "events"."flow_session" >= ? and "events"."created_at" < ?) order by "events"."flow_session" desc nulls last, "events"."id" desc limit 2 offset ?;

-- list: contains, some stored values match
select "events"."body" from "events" where "events"."company_id" = ? and "events"."flow_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = ? and "event_key_values"."field" = ? and event_key_values.rowid in (select rowid from event_key_values_trigrams where event_key_values_trigrams match ?) and instr(event_key_values.value, ?) > 0) order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- list: contains, no stored value matches
select "events"."body" from "events" where "events"."company_id" = ? and "events"."step_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = ? and "event_key_values"."field" = ? and event_key_values.rowid in (select rowid from event_key_values_trigrams where event_key_values_trigrams match ?) and instr(event_key_values.value, ?) > 0) order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- unitOfWork.run + feedPositionBefore + write (a replacement)
begin immediate;
select max(
    coalesce((select max(feed_seq) from events where company_id = ?), 0),
    coalesce((select through_seq from events_removed where company_id = ?), 0)) as last;
insert into "events" ("company_id", "id", "connection_id", "connection_key", "created_at", "excluded", "flow_id", "flow_key", "flow_session", "like_value", "seconds_active", "seconds_running", "selected_decision", "step_key", "text", "type", "updated_at", "user_id", "version_id", "version_key", "version_object", "body", "feed_seq") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "id") do update set "connection_id" = "excluded"."connection_id", "connection_key" = "excluded"."connection_key", "created_at" = "excluded"."created_at", "excluded" = "excluded"."excluded", "flow_id" = "excluded"."flow_id", "flow_key" = "excluded"."flow_key", "flow_session" = "excluded"."flow_session", "like_value" = "excluded"."like_value", "seconds_active" = "excluded"."seconds_active", "seconds_running" = "excluded"."seconds_running", "selected_decision" = "excluded"."selected_decision", "step_key" = "excluded"."step_key", "text" = "excluded"."text", "type" = "excluded"."type", "updated_at" = "excluded"."updated_at", "user_id" = "excluded"."user_id", "version_id" = "excluded"."version_id", "version_key" = "excluded"."version_key", "version_object" = "excluded"."version_object", "body" = "excluded"."body", "feed_seq" = "excluded"."feed_seq";
insert into "event_key_values" ("company_id", "field", "value") values (?, ?, ?), (?, ?, ?), (?, ?, ?), (?, ?, ?) on conflict do nothing;
commit;

-- changes: all types
select "body", "feed_seq" from "events" where "company_id" = ? and "feed_seq" > ? order by "feed_seq" limit 2;

-- changes: one type
select "body", "feed_seq" from "events" where "company_id" = ? and "type" = ? and "feed_seq" > ? order by "feed_seq" limit 2;

-- feedEnd
select max(
    coalesce((select max(feed_seq) from events where company_id = ?), 0),
    coalesce((select through_seq from events_removed where company_id = ?), 0)) as last;

-- legacyCursorLimit
select "legacy_cursor_xid", "legacy_cursor_seq" from "data_versions" where "company_id" = ?;

-- removedThrough
select "through_xid", "through_seq" from "events_removed" where "company_id" = ?;

-- openList: no filter, read in chunks
PRAGMA busy_timeout = 5000;
PRAGMA cache_size = -2000;
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = ? limit 2) as "bounded";
select "events"."body" from "events" where "events"."company_id" = ? order by "events"."created_at" asc, "events"."id" asc limit 2 offset ?;

-- openList: contains, ordered by flow_session desc, read in chunks
select count(*) as "matching" from (select 1 as "one" from "events" where "events"."company_id" = ? and "events"."flow_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = ? and "event_key_values"."field" = ? and event_key_values.rowid in (select rowid from event_key_values_trigrams where event_key_values_trigrams match ?) and instr(event_key_values.value, ?) > 0) limit 2) as "bounded";
select "events"."body" from "events" where "events"."company_id" = ? and "events"."flow_key" in (select "event_key_values"."value" from "event_key_values" where "event_key_values"."company_id" = ? and "event_key_values"."field" = ? and event_key_values.rowid in (select rowid from event_key_values_trigrams where event_key_values_trigrams match ?) and instr(event_key_values.value, ?) > 0) order by "events"."flow_session" desc nulls last, "events"."id" desc limit 2 offset ?;

-- openChanges: one type, read in chunks
select count(*) as "matching" from (select "feed_seq" from "events" where "company_id" = ? and "type" = ? and "feed_seq" > ? limit 2) as "bounded";
select "body", "feed_seq" from "events" where "company_id" = ? and "type" = ? and "feed_seq" > ? order by "feed_seq" limit 2;
