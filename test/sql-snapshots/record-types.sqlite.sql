-- unitOfWork.run + put: new
begin immediate;
insert into "record_types" ("company_id", "id", "name", "definition", "version", "created_at", "updated_at", "deleted_at") values (?, ?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "id") do update set "name" = ?, "definition" = ?, "version" = record_types.version + 1, "created_at" = case when record_types.deleted_at is null then record_types.created_at else ? end, "updated_at" = ?, "deleted_at" = ? returning "id", "name", "definition", "version", "created_at", "updated_at";
commit;

-- unitOfWork.run + put: replace
begin immediate;
insert into "record_types" ("company_id", "id", "name", "definition", "version", "created_at", "updated_at", "deleted_at") values (?, ?, ?, ?, ?, ?, ?, ?) on conflict ("company_id", "id") do update set "name" = ?, "definition" = ?, "version" = record_types.version + 1, "created_at" = case when record_types.deleted_at is null then record_types.created_at else ? end, "updated_at" = ?, "deleted_at" = ? returning "id", "name", "definition", "version", "created_at", "updated_at";
commit;

-- find
select "id", "name", "definition", "version", "created_at", "updated_at" from "record_types" where "company_id" = ? and "deleted_at" is null and "id" = ?;

-- versions: all
select "id", "version" from "record_types" where "company_id" = ? and "deleted_at" is null;

-- versions: named
select "id", "version" from "record_types" where "company_id" = ? and "deleted_at" is null and "id" in (?, ?);

-- findMany
select "id", "name", "definition", "version", "created_at", "updated_at" from "record_types" where "company_id" = ? and "deleted_at" is null and "id" in (?, ?);

-- list
select "id", "name", "definition", "version", "created_at", "updated_at" from "record_types" where "company_id" = ? and "deleted_at" is null order by "id";

-- unitOfWork.run + remove
begin immediate;
update "record_types" set "deleted_at" = ?, "updated_at" = ? where "company_id" = ? and "id" = ? and "deleted_at" is null;
commit;
