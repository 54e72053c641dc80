-- start
update "company_offboardings" set "state" = $1, "requested_by" = $2, "requested_at" = $3, "updated_at" = $4, "finished_at" = $5, "lease_until" = $6, "removed" = $7, "batches" = $8 where "company_id" = $9 and "state" = $10;
insert into "company_offboardings" ("company_id", "state", "requested_by", "requested_at", "updated_at", "finished_at", "lease_until", "removed", "batches") values ($1, $2, $3, $4, $5, $6, $7, $8, $9);
select * from "company_offboardings" where "company_id" = $1;

-- get
select * from "company_offboardings" where "company_id" = $1;

-- running
select "company_id" from "company_offboardings" where "state" = $1 order by "requested_at", "company_id";

-- claim
update "company_offboardings" set "lease_until" = $1 where "company_id" = $2 and "state" = $3 and ("lease_until" is null or "lease_until" <= $4);

-- saveProgress
begin;
update "company_offboardings" set "removed" = $1, "batches" = "batches" + $2, "updated_at" = $3, "lease_until" = $4 where "company_id" = $5;
commit;

-- finish
update "company_offboardings" set "state" = $1, "lease_until" = $2, "finished_at" = $3, "updated_at" = $4, "removed" = $5 where "company_id" = $6;
