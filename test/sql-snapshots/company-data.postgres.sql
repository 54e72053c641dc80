-- removeUserEvents
begin;
select pg_advisory_xact_lock($1::int4, hashtext($2));
delete from "events" where "company_id" = $1 and "id" in (select "id" from "events" where "company_id" = $2 and "user_id" = $3 limit $4) returning "connection_key", "flow_key", "step_key", "version_key";
commit;

-- removeUserRecordTokens
begin;
delete from "record_tokens" where "company_id" = $1 and "key" in (select "key" from "record_tokens" where "company_id" = $2 and "user_id" = $3 limit $4);
commit;

-- removeBatch: events
begin;
delete from "events" where ctid = any(array(select ctid from "events" where company_id = $1 limit $2));
commit;
