-- insertAll
begin immediate;
insert into "checks" ("company_id", "id", "date_created", "send_date", "scheduled", "mail_type", "body") values (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?);
commit;

-- existingIds
select "id" from "checks" where "company_id" = ? and "id" in (?, ?);

-- slice: first page
select "id", "date_created", "send_date", "body" from "checks" where "company_id" = ? order by "date_created" desc, "id" desc limit 3;

-- slice: filtered, backward from a position
select "id", "date_created", "send_date", "body" from "checks" where "company_id" = ? and "date_created" >= ? and "date_created" < ? and "scheduled" = ? and "mail_type" = ? and ("send_date" < ? or ("send_date" = ? and "id" <= ?)) order by "send_date" desc, "id" desc limit 3;
