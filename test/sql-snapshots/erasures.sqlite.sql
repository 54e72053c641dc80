-- start: new
select * from "erasures" where "company_id" = ? and "subject_hash" = ? and "state" = ?;
insert into "erasures" ("company_id", "id", "field", "subject_hash", "subject_sealed", "running_subject_hash", "state", "requested_by", "requested_at", "updated_at", "finished_at", "lease_until", "events_removed", "record_tokens_removed", "batches") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- start: the running one
select * from "erasures" where "company_id" = ? and "subject_hash" = ? and "state" = ?;

-- get
select * from "erasures" where "company_id" = ? and "id" = ?;

-- list
select * from "erasures" where "company_id" = ? order by "id" desc;

-- running
select "company_id", "id" from "erasures" where "state" = ? order by "requested_at", "company_id", "id";

-- claim
update "erasures" set "lease_until" = ? where "company_id" = ? and "id" = ? and "state" = ? and ("lease_until" is null or "lease_until" <= ?);

-- addProgress
begin immediate;
update "erasures" set "events_removed" = events_removed + ?, "record_tokens_removed" = record_tokens_removed + ?, "batches" = batches + 1, "updated_at" = ?, "lease_until" = ? where "company_id" = ? and "id" = ?;
commit;

-- finish
update "erasures" set "state" = ?, "subject_sealed" = ?, "running_subject_hash" = ?, "lease_until" = ?, "finished_at" = ?, "updated_at" = ? where "company_id" = ? and "id" = ?;
