-- removeUserEvents
begin;
delete from "events" where "company_id" = $1 and "id" in (select "id" from "events" where "company_id" = $2 and "user_id" = $3 limit $4);
commit;

-- removeUserRecordTokens
begin;
delete from "record_tokens" where "company_id" = $1 and "key" in (select "key" from "record_tokens" where "company_id" = $2 and "user_id" = $3 limit $4);
commit;

-- removeBatch: events
begin;
delete from "events" where ctid = any(array(select ctid from "events" where company_id = $1 limit $2));
commit;
