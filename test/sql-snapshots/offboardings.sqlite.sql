-- start
update "company_offboardings" set "state" = ?, "requested_by" = ?, "requested_at" = ?, "updated_at" = ?, "finished_at" = ?, "lease_until" = ?, "removed" = ?, "batches" = ? where "company_id" = ? and "state" = ?;
insert into "company_offboardings" ("company_id", "state", "requested_by", "requested_at", "updated_at", "finished_at", "lease_until", "removed", "batches") values (?, ?, ?, ?, ?, ?, ?, ?, ?);
select * from "company_offboardings" where "company_id" = ?;

-- get
select * from "company_offboardings" where "company_id" = ?;

-- running
select "company_id" from "company_offboardings" where "state" = ? order by "requested_at", "company_id";

-- claim
update "company_offboardings" set "lease_until" = ? where "company_id" = ? and "state" = ? and ("lease_until" is null or "lease_until" <= ?);

-- saveProgress
begin immediate;
update "company_offboardings" set "removed" = ?, "batches" = "batches" + ?, "updated_at" = ?, "lease_until" = ? where "company_id" = ?;
commit;

-- finish
update "company_offboardings" set "state" = ?, "lease_until" = ?, "finished_at" = ?, "updated_at" = ?, "removed" = ? where "company_id" = ?;
