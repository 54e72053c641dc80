-- removeUserEvents
begin;
select pg_advisory_xact_lock($1::int4, hashtext($2));
delete from "events" where "company_id" = $1 and ("created_at", "id") in (select "created_at", "id" from "events" where "company_id" = $2 and "user_id" = $3 limit $4) returning "id", "created_at", "connection_key", "flow_key", "step_key", "version_key";
commit;

-- removeUserRecordTokens
begin;
delete from "record_tokens" where "company_id" = $1 and "key" in (select "key" from "record_tokens" where "company_id" = $2 and "user_id" = $3 limit $4);
commit;

-- removeBatch: events
begin;
select tableoid::regclass::text as partition from events
    where company_id = $1 limit 1;
delete from event_ids where company_id = $1;
commit;
