-- removeUserEvents
begin immediate;
delete from "events" where "company_id" = ? and "id" in (select "id" from "events" where "company_id" = ? and "user_id" = ? limit 1000) returning "connection_key", "flow_key", "step_key", "version_key";
commit;

-- removeUserRecordTokens
begin immediate;
delete from "record_tokens" where "company_id" = ? and "key" in (select "key" from "record_tokens" where "company_id" = ? and "user_id" = ? limit 1000);
commit;

-- removeBatch: events
begin immediate;
delete from "events" where rowid in (select rowid from "events" where company_id = ? limit ?);
commit;
