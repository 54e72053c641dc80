-- insertAll
begin;
insert into "checks" ("company_id", "id", "date_created", "send_date", "scheduled", "mail_type", "body") values ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14);
commit;

-- existingIds
select "id" from "checks" where "company_id" = $1 and "id" in ($2, $3);

-- slice: first page
select "id", "date_created", "send_date", "body" from "checks" where "company_id" = $1 order by "date_created" desc, "id" desc limit $2;

-- slice: filtered, backward from a position
select "id", "date_created", "send_date", "body" from "checks" where "company_id" = $1 and "date_created" >= $2 and "date_created" < $3 and "scheduled" = $4 and "mail_type" = $5 and ("send_date" < $6 or ("send_date" = $7 and "id" <= $8)) order by "send_date" desc, "id" desc limit $9;
