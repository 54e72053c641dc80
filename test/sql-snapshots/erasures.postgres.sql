-- start: new
select * from "erasures" where "company_id" = $1 and "subject_hash" = $2 and "state" = $3;
insert into "erasures" ("company_id", "id", "field", "subject_hash", "subject_sealed", "running_subject_hash", "state", "requested_by", "requested_at", "updated_at", "finished_at", "lease_until", "events_removed", "record_tokens_removed", "batches") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15);

-- start: the running one
select * from "erasures" where "company_id" = $1 and "subject_hash" = $2 and "state" = $3;

-- get
select * from "erasures" where "company_id" = $1 and "id" = $2;

-- list
select * from "erasures" where "company_id" = $1 order by "id" desc;

-- running
select "company_id", "id" from "erasures" where "state" = $1 order by "requested_at", "company_id", "id";

-- claim
update "erasures" set "lease_until" = $1 where "company_id" = $2 and "id" = $3 and "state" = $4 and ("lease_until" is null or "lease_until" <= $5);

-- addProgress
begin;
update "erasures" set "events_removed" = events_removed + $1, "record_tokens_removed" = record_tokens_removed + $2, "batches" = batches + 1, "updated_at" = $3, "lease_until" = $4 where "company_id" = $5 and "id" = $6;
commit;

-- finish
update "erasures" set "state" = $1, "subject_sealed" = $2, "running_subject_hash" = $3, "lease_until" = $4, "finished_at" = $5, "updated_at" = $6 where "company_id" = $7 and "id" = $8;
