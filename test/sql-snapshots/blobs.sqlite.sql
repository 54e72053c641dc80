-- put
insert into "blobs" ("company_id", "key", "data", "size_bytes", "created_at") values (?, ?, ?, ?, ?);

-- get
select "data" from "blobs" where "company_id" = ? and "key" = ?;

-- delete
delete from "blobs" where "company_id" = ? and "key" = ?;
