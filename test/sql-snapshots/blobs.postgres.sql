-- put
insert into "blobs" ("company_id", "key", "data", "size_bytes", "created_at") values ($1, $2, $3, $4, $5);

-- get
select "data" from "blobs" where "company_id" = $1 and "key" = $2;

-- delete
delete from "blobs" where "company_id" = $1 and "key" = $2;
